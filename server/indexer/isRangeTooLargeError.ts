import { BaseError as ViemBaseError } from 'viem'

/** Phrases nodes and providers use when an `eth_getLogs` range or its result set is too big. */
const rangeMessage =
  /range too (large|wide|big)|block range|range (exceeds|is too)|too many blocks|query returned more than|more than \d+ (results|logs)|exceed(s|ed)? .*(range|limit|results|blocks)|response size|limit exceeded|too large/i

/** The JSON-RPC "limit exceeded" code; "invalid params" (-32602) counts only with such a phrase. */
const limitExceededCode = -32005
const rateLimitMessage = /rate limit|too many requests/i

/**
 * Whether an `eth_getLogs` failure means "ask for fewer blocks" rather than "try again later".
 * Looks through the whole cause chain, since viem wraps the node's answer.
 */
export function isRangeTooLargeError(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const { code, status } = current as { code?: unknown; status?: unknown }
    if (status === 413) return true
    const message = current instanceof ViemBaseError ? current.details || current.shortMessage : current.message
    if (code === limitExceededCode) return true
    if (rangeMessage.test(message) && !rateLimitMessage.test(message)) return true
  }
  return false
}
