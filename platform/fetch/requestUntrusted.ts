import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import { classifyAddress } from './classifyAddress.ts'
import { type RefuseAddress, createCheckedLookup } from './createCheckedLookup.ts'

/**
 * Which addresses a request may reach:
 * - `public`: only public ones, whether the URL names a host or an IP address (a URL someone else
 *   wrote: a seller's record);
 * - `named`: a URL naming an IP address reaches it (the person wrote it), a host name only public
 *   addresses (a name is its owner's to point anywhere, and to re-point between lookups);
 * - `any`: no check, an explicit allow (the devnet's loopback, an operator's own PCCS).
 */
export type AddressPolicy = { allow: 'public' | 'named'; refuse: RefuseAddress } | { allow: 'any' }

export type RequestUntrustedParameters = {
  url: string
  headers: Record<string, string>
  /** The most body bytes read; past it, reading stops. */
  maxBytes: number
  /** For the whole exchange, body included: a peer that answers a byte a second must not hold the caller. */
  timeoutMs: number
  addresses: AddressPolicy
  /** Sent as a POST when given (a verifier's API takes the evidence so); a GET otherwise. */
  body?: string | undefined
}

export type RequestUntrustedReturnType =
  /** A 2xx answer read in full. */
  | { status: number; body: Buffer; headers: IncomingMessage['headers'] }
  /** Any other answer, its body left unread; `location` for a redirect. */
  | { status: number; body: null; location: string | undefined; headers: IncomingMessage['headers'] }
  /** A 2xx answer whose body is longer than `maxBytes`. */
  | { status: number; body: 'too large'; headers: IncomingMessage['headers'] }

/**
 * One GET (or, with a `body`, one POST) to an endpoint someone else controls. Redirects are answers, never followed: the
 * request goes to the URL given only. Host names connect through a checked lookup. Throws when
 * nothing usable arrives before the deadline (an `AbortError`/`TimeoutError`), the address is
 * refused (the policy's own error), or the connection fails.
 */
export async function requestUntrusted({ url, headers, maxBytes, timeoutMs, addresses, body: sent }: RequestUntrustedParameters): Promise<RequestUntrustedReturnType> {
  const target = new URL(url)
  if (addresses.allow === 'public') refuseLiteral(target.hostname, addresses.refuse)
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  const lookup = addresses.allow === 'any' ? undefined : createCheckedLookup(addresses.refuse)
  const request = send(target, { method: sent === undefined ? 'GET' : 'POST', headers, agent: false, ...(lookup === undefined ? {} : { lookup }), signal: AbortSignal.timeout(timeoutMs) })
  // Errors after the answer started (the deadline during the body) surface through the body's stream.
  const failed = new Promise<never>((_, reject) => request.on('error', reject))
  failed.catch(() => {})
  try {
    request.end(sent)
    const response = await Promise.race([new Promise<IncomingMessage>((resolve) => request.once('response', resolve)), failed])
    const status = response.statusCode ?? 0
    if (status < 200 || status > 299) return { status, body: null, location: response.headers.location, headers: response.headers }
    if (Number(response.headers['content-length'] ?? 0) > maxBytes) return { status, body: 'too large', headers: response.headers }
    const body = await Promise.race([readCapped(response, maxBytes), failed])
    return { status, body, headers: response.headers }
  } finally {
    request.destroy()
  }
}

/** Node skips the lookup for an IP address in the URL, so it is checked here. */
function refuseLiteral(hostname: string, refuse: RefuseAddress): void {
  const address = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname
  if (isIP(address) === 0) return
  const kind = classifyAddress(address)
  if (kind !== 'public') throw refuse({ hostname, address, kind })
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
