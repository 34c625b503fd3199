import { html } from '../html.ts'
import { useNow } from '../useNow.ts'
import { describeRelativeTime } from './describeRelativeTime.ts'

/**
 * A unix time (seconds) shown relative to now ("3 minutes ago", "in 2 hours") and kept so as time
 * passes (see useNow); the exact time, in the reader's locale and as the UTC instant, in its title.
 */
export function Time({ seconds }: { seconds: string }) {
  const now = useNow()
  const date = new Date(Number(seconds) * 1000)
  const instant = date.toISOString()
  return html`<time datetime=${instant} title=${`${date.toLocaleString()} (${instant})`}>${describeRelativeTime(Number(seconds), now)}</time>`
}
