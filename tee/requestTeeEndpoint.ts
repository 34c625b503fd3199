import { quoteUntrustedText } from '../contract/quoteUntrustedText.ts'
import { TeeAddressRefusedError, TeeFetchError, type TeeFetchWhat } from '../errors/tee.ts'
import { type AddressPolicy, requestUntrusted } from '../platform/fetch/requestUntrusted.ts'

export type RequestTeeEndpointParameters = {
  what: TeeFetchWhat
  url: string
  maxBytes: number
  timeoutMs: number
  /** An explicit allow of non-public addresses (the devnet's loopback, the operator's own PCCS); never the default. */
  allowPrivate: boolean
  /** Statuses returned to the caller rather than refused (the report's 404 that falls back to /v1/quote). */
  passStatuses?: readonly number[] | undefined
  /** JSON to POST (the GPU evidence sent to NRAS); a GET without it. */
  body?: string | undefined
}

export type RequestTeeEndpointReturnType =
  | { status: number; body: Buffer; headers: Record<string, string | string[] | undefined> }
  | { status: number; body: null }

const publicOnly: AddressPolicy = { allow: 'public', refuse: (refused) => new TeeAddressRefusedError(refused) }
const maxQuoted = 200

const quote = (text: string) => quoteUntrustedText(text.length > maxQuoted ? `${text.slice(0, maxQuoted)}…` : text)

/**
 * One GET of TEE evidence (or a POST of `body`, as JSON) from a peer that may be hostile: no
 * redirect followed, at most `maxBytes`, one deadline for the whole exchange, non-public addresses
 * refused unless allowed.
 * Each failure is a `TeeFetchError` saying what was wrong and what is allowed, the cause kept.
 */
export async function requestTeeEndpoint({ what, url, maxBytes, timeoutMs, allowPrivate, passStatuses = [], body }: RequestTeeEndpointParameters): Promise<RequestTeeEndpointReturnType> {
  const fail = (reason: string, allowed: string, cause?: unknown) => new TeeFetchError({ what, url, reason, allowed, cause })
  const protocol = URL.canParse(url) ? new URL(url).protocol : undefined
  if (protocol !== 'http:' && protocol !== 'https:') throw fail('it is not an http:// or https:// URL', 'Only http and https endpoints are fetched.')
  let answer: Awaited<ReturnType<typeof requestUntrusted>>
  try {
    const headers: Record<string, string> = body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' }
    answer = await requestUntrusted({ url, headers, body, maxBytes, timeoutMs, addresses: allowPrivate ? { allow: 'any' } : publicOnly })
  } catch (error) {
    if (error instanceof TeeAddressRefusedError) throw fail(`it was not contacted: ${error.message}`, 'Only public addresses are fetched unless the operator allows private ones.', error)
    const timedOut = error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')
    if (timedOut) throw fail(`no full answer came within ${timeoutMs / 1_000} s`, `The whole exchange, body included, must end within ${timeoutMs / 1_000} s.`, error)
    throw fail(`the connection failed (${quote(error instanceof Error ? error.message : String(error))})`, 'A reachable http or https endpoint is needed.', error)
  }
  const { status } = answer
  if (passStatuses.includes(status)) return { status, body: null }
  if (status >= 300 && status <= 399) {
    const location = answer.body === null ? answer.location : undefined
    throw fail(`it answered a redirect (${status})${location === undefined ? '' : ` to ${quote(location)}`}`, 'Redirects are not followed: the evidence must be served at the URL asked.')
  }
  if (answer.body === null) throw fail(`it answered ${status}`, 'A 200 answer is expected.')
  if (answer.body === 'too large') throw fail(`it sent more than ${maxBytes} bytes`, `At most ${maxBytes} bytes are read.`)
  return { status, body: answer.body, headers: answer.headers }
}
