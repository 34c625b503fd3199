import { HttpRequestError } from 'viem'
import { parseRetryAfter } from '../../contract/parseRetryAfter.ts'

export type ReadRetryAfterReturnType = number | undefined

/**
 * How long the node asked us to wait, in milliseconds, from the `Retry-After` header of the HTTP
 * answer in the error's cause chain (seconds, or an HTTP date); undefined when it said nothing usable.
 */
export function readRetryAfter(error: unknown, { now = Date.now() }: { now?: number } = {}): ReadRetryAfterReturnType {
  for (let link: unknown = error; link instanceof Error; link = link.cause) {
    if (link instanceof HttpRequestError) return parseRetryAfter(link.headers?.get('retry-after'), { now })
  }
  return undefined
}
