import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { checkedLookup } from './checkedLookup.ts'

export type RequestOutputParameters = {
  url: string
  headers: Record<string, string>
  /** The most body bytes read; past it, reading stops. */
  maxBytes: number
  /** For the whole exchange, body included: a seller that answers a byte a second must not hold `run`. */
  timeoutMs: number
}

export type RequestOutputReturnType =
  /** A 2xx answer read in full. */
  | { status: number; body: Buffer }
  /** Any other answer, its body left unread; `location` for a redirect. */
  | { status: number; body: null; location: string | undefined }
  /** A 2xx answer whose body is longer than `maxBytes`. */
  | { status: number; body: 'too large' }

/**
 * One GET to a seller's output endpoint. Redirects are answers, never followed: the request
 * carries the buyer's signature and goes to the configured endpoint only. Host names connect
 * through `checkedLookup`. Throws when nothing usable arrives before the deadline (an
 * `AbortError`/`TimeoutError`), the address is refused, or the connection fails.
 */
export async function requestOutput({ url, headers, maxBytes, timeoutMs }: RequestOutputParameters): Promise<RequestOutputReturnType> {
  const target = new URL(url)
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  const request = send(target, { method: 'GET', headers, agent: false, lookup: checkedLookup, signal: AbortSignal.timeout(timeoutMs) })
  // Errors after the answer started (the deadline during the body) surface through the body's stream.
  const failed = new Promise<never>((_, reject) => request.on('error', reject))
  failed.catch(() => {})
  try {
    request.end()
    const response = await Promise.race([new Promise<IncomingMessage>((resolve) => request.once('response', resolve)), failed])
    const status = response.statusCode ?? 0
    if (status < 200 || status > 299) return { status, body: null, location: response.headers.location }
    if (Number(response.headers['content-length'] ?? 0) > maxBytes) return { status, body: 'too large' }
    const body = await Promise.race([readCapped(response, maxBytes), failed])
    return { status, body }
  } finally {
    request.destroy()
  }
}

async function readCapped(response: IncomingMessage, maxBytes: number): Promise<Buffer | 'too large'> {
  const chunks: Buffer[] = []
  let length = 0
  for await (const chunk of response as AsyncIterable<Buffer>) {
    length += chunk.length
    if (length > maxBytes) return 'too large'
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, length)
}
