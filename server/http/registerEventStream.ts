import type { FastifyInstance, FastifyRequest } from 'fastify'
import { EventsQuerySchema, FeedCursorSchema } from '../../contract/feed.ts'
import { marketContract } from '../../contract/router.ts'
import { FeedNotReadyError, TooManyStreamsError } from '../../errors/feed.ts'
import { InvalidParameterError } from '../../errors/http.ts'
import { corsHeaders } from '../../platform/http/addCorsHeaders.ts'
import { clientKeyOf } from '../../platform/http/clientKeyOf.ts'
import type { LiveFeed } from '../feed/createLiveFeed.ts'
import { parseFeedCursor, type FeedCursor } from '../feed/feedCursor.ts'
import { toFeedFilter } from '../feed/FeedFilter.ts'
import { assertServing } from '../readers/assertServing.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { createStreamOutbox, type StreamOutbox } from './createStreamOutbox.ts'
import { toInvalidParameterError } from './toInvalidParameterError.ts'

export type EventStreamSettings = {
  /** Streams served at once in total (`--max-streams`). */
  maxStreams: number
  /** Streams one client address may hold (`--max-client-streams`); trusted proxies count their clients. */
  maxClientStreams: number
  /** After this long a stream ends and its client resumes from its id (`--stream-lifetime`, in seconds there). */
  lifetimeMs: number
}

export type RegisterEventStreamParameters = {
  feed: LiveFeed
  store: StoreReader
  settings: EventStreamSettings
}

/** A comment this often keeps every idle timeout on the way from firing: ours (30 s), nginx's (60 s), a browser's. */
export const heartbeatMs = 15_000

/** What an `EventSource` waits before reconnecting after the stream ends. */
const retryMs = 3_000

/** Live text a stream may hold unsent behind a slow reader: some hundreds of job events. */
const maxUnsentChars = 1_048_576

const heartbeat = ': keep-alive\n\n'

/**
 * `GET /v1/events`, the live feed as Server-Sent Events. Outside ts-rest, whose handlers answer
 * one body, but read from the same contract: its path and query schema. Every refusal (a bad
 * filter or id, not ready, over a cap) is thrown before the first byte, so it is JSON through the
 * app's error handler; then the reply is taken over and the stream written by hand, uncompressed.
 */
export function registerEventStream(app: FastifyInstance, { feed, store, settings }: RegisterEventStreamParameters): void {
  const { path } = marketContract.feed.streamEvents
  const streamsByClient = new Map<string, number>()
  const outboxes = new Set<StreamOutbox>()
  const beat = setInterval(() => {
    for (const outbox of outboxes) outbox.push(heartbeat)
  }, heartbeatMs)
  beat.unref()
  const ends = new Set<() => void>()
  app.addHook('onClose', (_app, done) => {
    clearInterval(beat)
    for (const end of ends) end()
    done()
  })

  app.get(path, async (request, reply) => {
    const query = EventsQuerySchema.safeParse(request.query)
    if (!query.success) throw toInvalidParameterError({ location: 'query', error: query.error, values: request.query })
    const cursor = readCursor(request, query.data.after)
    assertServing(store)
    if (!feed.ready) throw new FeedNotReadyError({ retryAfterSeconds: 5 })
    const client = clientKeyOf(request.ip)
    const held = streamsByClient.get(client) ?? 0
    if (feed.streams >= settings.maxStreams) throw new TooManyStreamsError({ scope: 'server', max: settings.maxStreams, retryAfterSeconds: 10 })
    if (held >= settings.maxClientStreams) throw new TooManyStreamsError({ scope: 'client', max: settings.maxClientStreams, retryAfterSeconds: 10 })

    reply.hijack()
    const response = reply.raw
    response.writeHead(200, {
      ...corsHeaders,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // nginx would otherwise hold the events in its buffer.
      'x-accel-buffering': 'no',
    })
    if (request.method === 'HEAD') return void response.end()
    streamsByClient.set(client, held + 1)
    const end = (): void => void response.end()
    let outbox: StreamOutbox | undefined
    const opening = feed.open({
      cursor,
      subscriber: { filter: toFeedFilter(query.data), send: (frame) => outbox?.push(frame), end },
    })
    outbox = createStreamOutbox(response, {
      replay: [`retry: ${retryMs}\n\n`, ...opening.replay],
      maxUnsentChars,
      onOverflow: () => request.log.info({ client }, 'event stream cut: its client stopped reading'),
    })
    outboxes.add(outbox)
    ends.add(end)
    const lifetime = setTimeout(end, settings.lifetimeMs)
    lifetime.unref()
    response.on('close', () => {
      clearTimeout(lifetime)
      opening.close()
      outboxes.delete(outbox as StreamOutbox)
      ends.delete(end)
      const left = (streamsByClient.get(client) ?? 1) - 1
      if (left === 0) streamsByClient.delete(client)
      else streamsByClient.set(client, left)
    })
  })
}

/** The id to resume after: `Last-Event-ID` (what an EventSource sends on a reconnect) before `?after=`. */
function readCursor(request: FastifyRequest, after: string | undefined): FeedCursor | undefined {
  const header = request.headers['last-event-id']
  const text = typeof header === 'string' && header !== '' ? header : after
  if (text === undefined) return undefined
  const cursor = parseFeedCursor(text)
  if (cursor === undefined) {
    const expected = FeedCursorSchema.safeParse(text).error?.issues[0]?.message ?? 'Expected an event id this API sent.'
    throw new InvalidParameterError({ location: text === after ? 'query' : 'header', parameter: text === after ? 'after' : 'Last-Event-ID', value: text, expected })
  }
  return cursor
}
