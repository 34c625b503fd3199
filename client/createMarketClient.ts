import { initClient, type InitClientReturn } from '@ts-rest/core'
import { marketContract, type MarketContract } from '../contract/router.ts'
import { feedConnections } from './feedConnections.ts'
import { followFeed, type EventsFilters, type FeedConnection, type FollowFeedReturnType } from './followFeed.ts'
import type { MarketEvent } from './parseFeedEvent.ts'

export type CreateMarketClientParameters = {
  /** Where the REST indexer answers, without a trailing slash, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string
  /** Sent with every request, e.g. an API gateway's key. */
  baseHeaders?: Record<string, string>
  /** Checks every 2xx/4xx body, and every event of `events`, against the contract's zod schema (off by default: costs CPU per answer). */
  validateResponse?: boolean
}

type MarketClientArgs = { baseUrl: string; baseHeaders: Record<string, string>; validateResponse: boolean }

export type EventsOptions = {
  /** Ends the iteration quietly when aborted, also while connecting or waiting to reconnect. */
  signal?: AbortSignal
  /** Start after this event id (an `id` the feed sent, e.g. kept from an earlier run); without it the stream starts live. */
  after?: string
  /** Milliseconds without a byte after which the connection counts as lost and is made again; default 45,000 (the indexer sends a comment every 15 s). */
  idleTimeout?: number
}

export type EventsReturnType = AsyncGenerator<MarketEvent, void, undefined>

/** The ts-rest client of `contract/router.ts`: one typed function per route, narrowed on `status`; and the live feed. */
export type MarketClient = InitClientReturn<MarketContract, MarketClientArgs> & {
  /**
   * The live feed (`GET /v1/events`), as typed events (`MarketEvent`, a `FeedEvent`: `job`,
   * `service`, `head`, `reorg`, `reset`), followed across connections: after a drop or the indexer ending the
   * stream it connects again with `Last-Event-ID`, so no event is missed or repeated; 429 and 503
   * are waited out by their `Retry-After`. Throws `FeedRefusedError` (404: no feed; 400: a bad
   * filter or id) or `FeedProtocolError`; ends quietly when `signal` aborts.
   */
  events: (filters?: EventsFilters, options?: EventsOptions) => EventsReturnType
}

export type CreateMarketClientReturnType = MarketClient

/**
 * The typed REST client: `await client.jobs.getJob({ params: { id: '7' } })` answers
 * `{ status: 200, body: JobDetail } | { status: 400 | 404, body: ErrorBody }`, and
 * `client.events(filters, { signal })` follows the live feed. Uses the global `fetch`, so it runs
 * unchanged in browsers, Node 20+, Deno and Bun. (`client.feed.streamEvents`, the route as
 * ts-rest sees it, cannot read a stream: use `client.events`.)
 */
export function createMarketClient({
  baseUrl,
  baseHeaders = {},
  validateResponse = false,
}: CreateMarketClientParameters): CreateMarketClientReturnType {
  const root = baseUrl.replace(/\/+$/, '')
  const connection: FeedConnection = { baseUrl: root, baseHeaders, validate: validateResponse }
  const client: MarketClient = {
    ...initClient(marketContract, { baseUrl: root, baseHeaders, validateResponse }),
    events: (filters, { signal, after, idleTimeout } = {}) => eventsOf(followFeed(connection, { filters, signal, after, idleTimeout })),
  }
  feedConnections.set(client, connection)
  return client
}

async function* eventsOf(items: FollowFeedReturnType): EventsReturnType {
  for await (const item of items) if (item.type === 'event') yield item.event
}
