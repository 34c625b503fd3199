import type { FeedConnection } from './followFeed.ts'

/**
 * The feed behind each client `createMarketClient` made: `watchJob` follows it itself, to learn
 * when a connection opens (and read the job again then), which `client.events` does not say.
 */
export const feedConnections = new WeakMap<object, FeedConnection>()
