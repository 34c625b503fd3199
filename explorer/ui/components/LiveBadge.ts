import { html } from '../html.ts'
import type { Feed } from '../useFeed.ts'

const titles = {
  live: 'Changes arrive from the indexer’s live feed as they are indexed',
  connecting: 'Connecting to the indexer’s live feed',
  polling: 'The live feed is unavailable: read again every few seconds, and the feed tried again later',
}

/** Where a page's live data comes from now: its stream, or polling while the stream is refused. */
export function LiveBadge({ feed }: { feed: Feed }) {
  return html`<span class="live" data-feed=${feed.mode} title=${titles[feed.mode]}>${feed.mode === 'live' ? 'live' : feed.mode}</span>`
}
