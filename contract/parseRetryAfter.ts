/**
 * A `Retry-After` value (delta-seconds, or an HTTP date) as milliseconds from `now`; undefined
 * when it is absent or unreadable. The API's 429 and 503 carry one, as do nodes' rate limits.
 */
export function parseRetryAfter(value: string | null | undefined, { now = Date.now() }: { now?: number } = {}): number | undefined {
  const text = value?.trim()
  if (text === undefined || text === '') return undefined
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1_000
  // An HTTP date names its month; Date.parse alone would read "-1" as a year.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}
