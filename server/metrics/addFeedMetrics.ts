import type { Registry } from 'prom-client'
import type { LiveFeed } from '../feed/createLiveFeed.ts'
import { addCollectedGauge } from './addCollectedGauge.ts'

/** How many live-feed streams are open: against `--max-streams`, when to add a replica. */
export function addFeedMetrics(registry: Registry, { feed }: { feed: Pick<LiveFeed, 'streams'> }): void {
  addCollectedGauge(registry, { name: 'feed_streams', help: 'Live-feed streams (GET /v1/events) open now.', read: () => feed.streams })
}
