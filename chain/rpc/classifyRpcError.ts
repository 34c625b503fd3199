import {
  BaseError as ViemBaseError,
  HttpRequestError,
  ResponseBodyTooLargeError,
  RpcError,
  RpcRequestError,
  SocketClosedError,
  TimeoutError,
  UnknownRpcError,
  WebSocketRequestError,
} from 'viem'

/**
 * What a failed RPC request means for the one that asked:
 * - `rate-limited`: the node or its provider says slow down (HTTP 429, or 503 with `Retry-After`,
 *   whatever the body; a rate code or phrase). Asking smaller would only add requests: retry the
 *   same request later, after its `Retry-After` or with backoff.
 * - `timeout`: no answer within the client's timeout; the node may still be computing it. A log
 *   window is asked smaller (its width may be what took so long); anything else is retried later,
 *   with backoff.
 * - `transport`: no usable answer (a dropped connection or socket, an HTTP error status
 *   that carries no JSON-RPC error). Retry later, with backoff.
 * - `too-large`: the request, or what it would return, exceeds a limit of the node, its provider
 *   or our client (a block range, a result count, a response size, HTTP 413). Ask for less: fewer
 *   blocks per `eth_getLogs`, fewer records per `eth_call`.
 * - `refused`: the node answered a JSON-RPC error about what was asked, naming no limit (out of
 *   gas under its cap, no calls without `to`, an internal error). Smaller `eth_call`s may succeed
 *   (readByIds splits); a log read is retried as it is, since its size was not what was refused.
 * - `unknown`: not an RPC failure (our own errors, a decoding failure, anything not thrown by viem's
 *   request path).
 */
export type RpcErrorKind = 'rate-limited' | 'timeout' | 'transport' | 'too-large' | 'refused' | 'unknown'
export type ClassifyRpcErrorReturnType = RpcErrorKind

/** Phrases providers use to say slow down, whatever code or status carries them. */
const rateLimitPhrase = /\brate\b|too many requests|throttl|per second|\/second|request limit|compute units/i
/** JSON-RPC 429 (providers answering a batch with HTTP 200); QuickNode's own -32007. */
const rateLimitCodes: readonly unknown[] = [429, -32007]

/** Phrases nodes and providers use when a request or its result set is too big (a block range, a log count, a size). */
const tooLargePhrase =
  /range too (large|wide|big)|block range|range (exceeds|is too)|too many blocks|query returned more than|more than \d+ (results|logs)|exceed(s|ed)? .*(range|limit|results|blocks)|response size|limit exceeded|too large/i
/** JSON-RPC "limit exceeded" (EIP-1474): too large, unless its message says rate. */
const limitExceededCode = -32005

/**
 * The kind of an RPC failure (see RpcErrorKind), from the first link of its cause chain that viem's
 * request path threw: HTTP, timeout and socket errors, and the node's JSON-RPC error (an
 * `RpcRequestError`, or the `RpcError` subclass viem wraps it in, which carries its code and message).
 * The wrappers of actions (`CallExecutionError`, node errors) are looked through. A rate limit wins
 * over every other reading: under one, smaller requests only add load.
 */
export function classifyRpcError(error: unknown): ClassifyRpcErrorReturnType {
  for (let link: unknown = error; link instanceof Error; link = link.cause) {
    if (link instanceof HttpRequestError) {
      if (link.status === 413) return 'too-large'
      if (isRateLimitStatus(link) || rateLimitPhrase.test(messageOf(link))) return 'rate-limited'
      // The node's JSON-RPC error inside another status (see createStatusCheck): read as if in a 200.
      if (link.cause instanceof RpcRequestError) continue
      // A body that is no JSON-RPC error (a provider's own JSON or text) naming a limit.
      return tooLargePhrase.test(messageOf(link)) ? 'too-large' : 'transport'
    }
    if (link instanceof ResponseBodyTooLargeError) return 'too-large'
    if (link instanceof TimeoutError) return 'timeout'
    if (link instanceof SocketClosedError || link instanceof WebSocketRequestError) {
      return 'transport'
    }
    // What a transport threw without a JSON-RPC code: only its message tells.
    if (link instanceof UnknownRpcError) {
      if (rateLimitPhrase.test(messageOf(link))) return 'rate-limited'
      if (tooLargePhrase.test(messageOf(link))) return 'too-large'
      continue
    }
    if (link instanceof RpcRequestError || link instanceof RpcError) {
      const message = messageOf(link)
      if (rateLimitCodes.includes(link.code) || rateLimitPhrase.test(message)) return 'rate-limited'
      return link.code === limitExceededCode || tooLargePhrase.test(message) ? 'too-large' : 'refused'
    }
  }
  return 'unknown'
}

/**
 * HTTP 429, or 503 with a `Retry-After`: a rate limit whatever the body says (providers answer one
 * JSON-RPC error, -32005 "limit exceeded" among them, which alone would read as a size refusal).
 */
function isRateLimitStatus(error: HttpRequestError): boolean {
  return error.status === 429 || (error.status === 503 && error.headers?.has('retry-after') === true)
}

/** The node's own words: viem keeps them as `details`, the cause's message. */
function messageOf(error: ViemBaseError): string {
  return error.details || error.shortMessage
}
