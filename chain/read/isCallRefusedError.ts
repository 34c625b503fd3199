import { HttpRequestError, RpcRequestError } from 'viem'

const rateLimitMessage = /\brate\b|too many requests|throttl/i
const rateLimitCode = 429

/**
 * Whether a failed `eth_call` was refused by the node for what it asked (too much code returned,
 * out of gas under the node's cap, a request body too large, no support for calls without `to`)
 * rather than lost on the way: an answer carrying a JSON-RPC error, or HTTP 413. Asking for fewer
 * records per call can succeed. Transport failures (timeouts, dropped connections, HTTP 429 and
 * 5xx) and rate limits are not refusals: smaller calls would only add load, so they propagate to
 * the indexer's retry with backoff.
 */
export function isCallRefusedError(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current instanceof HttpRequestError) return current.status === 413
    if (current instanceof RpcRequestError) {
      return current.code !== rateLimitCode && !rateLimitMessage.test(current.details || current.shortMessage)
    }
  }
  return false
}
