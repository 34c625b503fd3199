import { HttpRequestError } from 'viem'

export type ReadRetryAfterReturnType = number | undefined

/**
 * How long the node asked us to wait, in milliseconds, from the `Retry-After` header of the HTTP
 * answer in the error's cause chain (seconds, or an HTTP date); undefined when it said nothing usable.
 */
export function readRetryAfter(error: unknown, { now = Date.now() }: { now?: number } = {}): ReadRetryAfterReturnType {
  for (let link: unknown = error; link instanceof Error; link = link.cause) {
    if (!(link instanceof HttpRequestError)) continue
    const value = link.headers?.get('retry-after')?.trim()
    if (value === undefined || value === '') return undefined
    if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1_000
    const date = Date.parse(value)
    return Number.isNaN(date) ? undefined : Math.max(0, date - now)
  }
  return undefined
}
