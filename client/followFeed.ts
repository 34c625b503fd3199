import type { feedRecordTypes } from '../contract/feed.ts'
import { parseRetryAfter } from '../contract/parseRetryAfter.ts'
import { EventTooLongError, FeedProtocolError, FeedRefusedError } from '../errors/client.ts'
import { feedRetryDelay } from './feedRetryDelay.ts'
import { parseFeedEvent, type MarketEvent } from './parseFeedEvent.ts'
import { readEventStream } from './readEventStream.ts'
import { sleep } from './sleep.ts'

/** Where the feed is and how to ask for it: what `createMarketClient` was given. */
export type FeedConnection = {
  baseUrl: string
  baseHeaders: Record<string, string>
  /** Check each event against `FeedEventSchema`. */
  validate: boolean
}

/** `GET /v1/events`'s filters; they combine with AND. */
export type EventsFilters = {
  /** Only these jobs (up to 100). */
  jobs?: readonly (string | bigint)[]
  /** Only this seller's jobs and services. */
  seller?: string
  /** Only this buyer's jobs (and no service events). */
  buyer?: string
  /** Only this service and its jobs. */
  serviceId?: string | bigint
  /** Only these record events; `head`, `reorg` and `reset` always come. */
  types?: readonly (typeof feedRecordTypes)[number][]
}

export type FollowFeedParameters = {
  filters?: EventsFilters | undefined
  /** Ends the iteration quietly when aborted, also while connecting or waiting. */
  signal?: AbortSignal | undefined
  /** Resume after this event id (an `id` this feed sent), sent as `Last-Event-ID`. */
  after?: string | undefined
  /** Milliseconds without a byte (the indexer sends a comment every 15 s) after which the connection counts as lost; default 45,000. */
  idleTimeout?: number | undefined
}

/** An event, or `open`: a connection was accepted (200, an event stream), before its first event. */
export type FeedItem = { type: 'open' } | { type: 'event'; event: MarketEvent }

export type FollowFeedReturnType = AsyncGenerator<FeedItem, void, undefined>

/** The `retry:` the indexer sends first, used until a stream says otherwise. */
const defaultRetry = 3_000

/**
 * Follows `GET /v1/events` across connections: each event as it comes, and after a drop, an idle
 * connection or the indexer ending the stream, a new connection with `Last-Event-ID` set to the
 * last id received, so nothing is missed or sent twice. The first reconnection after a stream that
 * lived is immediate; then, and after 429, 502, 503 and 504, it waits (feedRetryDelay: the
 * `Retry-After`, else the stream's `retry:` doubled, capped, with jitter). Other statuses throw a
 * `FeedRefusedError`, an answer that is not the feed a `FeedProtocolError`; an abort ends it.
 */
export async function* followFeed(
  connection: FeedConnection,
  { filters = {}, signal, after, idleTimeout = 45_000 }: FollowFeedParameters = {},
): FollowFeedReturnType {
  const url = feedUrl(connection.baseUrl, filters)
  let lastId = after
  let retry = defaultRetry
  let failures = 0
  let retryAfter: number | undefined
  // A function, not a narrowed property: the signal can be aborted while a request is awaited.
  const aborted = (): boolean => signal?.aborted === true
  while (!aborted()) {
    if (failures > 0) await sleep(feedRetryDelay({ failures, retry, retryAfter }), signal)
    if (aborted()) return
    retryAfter = undefined
    const attempt = linkedController(signal)
    let idle: ReturnType<typeof setTimeout> | undefined
    // Counts only while waiting for the indexer, not while the caller holds an event.
    const alive = (): void => {
      clearTimeout(idle)
      idle = setTimeout(() => attempt.abort(), idleTimeout)
    }
    const held = (): void => clearTimeout(idle)
    const openedAt = Date.now()
    let delivered = false
    try {
      alive()
      const opened = await openFeed(connection, { url, lastId, signal: attempt.signal })
      if (opened.type === 'wait') {
        failures += 1
        retryAfter = opened.retryAfter
        continue
      }
      held()
      yield { type: 'open' }
      alive()
      for await (const item of readEventStream(opened.body, { onChunk: alive })) {
        if (item.type === 'retry') {
          retry = item.retry
          continue
        }
        if (item.message.id !== undefined && item.message.id !== '') lastId = item.message.id
        const event = parseFeedEvent(item.message, { baseUrl: connection.baseUrl, validate: connection.validate })
        if (event === undefined) continue
        delivered = true
        held()
        yield { type: 'event', event }
        alive()
      }
    } catch (error) {
      if (aborted()) return
      if (error instanceof FeedRefusedError || error instanceof FeedProtocolError) throw error
      if (error instanceof EventTooLongError) throw new FeedProtocolError({ baseUrl: connection.baseUrl, problem: 'an event too long to hold', cause: error })
      // Anything else is the connection: refused, reset, cut mid-event, or idle too long.
    } finally {
      clearTimeout(idle)
      attempt.abort()
    }
    // A stream that delivered or lived is followed at once; one that keeps dying young backs off.
    failures = delivered || Date.now() - openedAt >= retry ? 0 : failures + 1
  }
}

/** `/v1/events` with the filters as its query (`after` is sent as `Last-Event-ID`). */
function feedUrl(baseUrl: string, { jobs, seller, buyer, serviceId, types }: EventsFilters): string {
  const query = new URLSearchParams()
  if (jobs !== undefined) query.set('jobs', jobs.map(String).join(','))
  if (seller !== undefined) query.set('seller', seller)
  if (buyer !== undefined) query.set('buyer', buyer)
  if (serviceId !== undefined) query.set('serviceId', String(serviceId))
  if (types !== undefined) query.set('types', types.join(','))
  const search = query.toString()
  return `${baseUrl}/v1/events${search === '' ? '' : `?${search}`}`
}

type OpenFeedReturnType = { type: 'stream'; body: ReadableStream<Uint8Array> } | { type: 'wait'; retryAfter: number | undefined }

/** One request for the stream: its body, or how long to wait (429, 502, 503, 504); throws on any other answer. */
async function openFeed(
  { baseUrl, baseHeaders }: FeedConnection,
  { url, lastId, signal }: { url: string; lastId: string | undefined; signal: AbortSignal },
): Promise<OpenFeedReturnType> {
  const headers: Record<string, string> = { ...baseHeaders, accept: 'text/event-stream' }
  if (lastId !== undefined) headers['last-event-id'] = lastId
  const response = await fetch(url, { headers, signal })
  if (response.status === 200) {
    const type = response.headers.get('content-type') ?? ''
    if (response.body !== null && /^text\/event-stream\s*(;|$)/i.test(type)) return { type: 'stream', body: response.body }
    await response.body?.cancel()
    throw new FeedProtocolError({ baseUrl, problem: `HTTP 200 with ${type === '' ? 'no content type' : `"${type}"`}, not an event stream` })
  }
  const body = await readBody(response)
  if ([429, 502, 503, 504].includes(response.status)) return { type: 'wait', retryAfter: parseRetryAfter(response.headers.get('retry-after')) }
  throw new FeedRefusedError({ baseUrl, status: response.status, body })
}

/** A refusal's body: its JSON when it is JSON, else its text. */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text === '' ? undefined : text
  }
}

/** An AbortController that also aborts when `signal` does; abort it to let `signal` go. */
function linkedController(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController()
  if (signal === undefined) return controller
  const abort = (): void => controller.abort(signal.reason)
  signal.addEventListener('abort', abort, { once: true })
  controller.signal.addEventListener('abort', () => signal.removeEventListener('abort', abort), { once: true })
  return controller
}
