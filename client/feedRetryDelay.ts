/** The longest wait before a reconnection, before jitter: a minute. */
export const maxFeedRetryDelay = 60_000

/** The shortest: a `Retry-After: 0` or a `retry: 0` is not an invitation to a tight loop. */
export const minFeedRetryDelay = 500

export type FeedRetryDelayParameters = {
  /** Failed attempts in a row, 1 for the first. */
  failures: number
  /** The stream's `retry:` field, or the default. */
  retry: number
  /** What the refusal's `Retry-After` asked for, in milliseconds. */
  retryAfter?: number | undefined
}

/**
 * How long to wait before connecting again: what `Retry-After` asks when it was sent, otherwise
 * `retry` doubled at each failure in a row; at most `maxFeedRetryDelay`, then up to a quarter more
 * at random, so that clients refused together do not come back together (never earlier than
 * asked).
 */
export function feedRetryDelay({ failures, retry, retryAfter }: FeedRetryDelayParameters): number {
  const asked = retryAfter ?? retry * 2 ** Math.max(0, failures - 1)
  const delay = Math.min(maxFeedRetryDelay, Math.max(minFeedRetryDelay, asked))
  return delay + Math.random() * (delay / 4)
}
