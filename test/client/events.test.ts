import { afterEach, describe, expect, test } from 'vitest'
import { createMarketClient } from '../../client/createMarketClient.ts'
import type { MarketEvent } from '../../client/parseFeedEvent.ts'
import { FeedProtocolError, FeedRefusedError } from '../../errors/client.ts'
import { type FeedHandler, type FeedServer, jobAt, startFeedServer } from './support/startFeedServer.ts'

// client.events against a small indexer of the test's own that speaks the feed's wire protocol
// (test/client/support/startFeedServer.ts): what it yields, how it resumes, waits and fails.

const id = (block: number, log: number | 'h' | 'c' = 0): string => `31337-${block}-${'1a2b3c4d5e6f7a8b'}-${log}`
const jobEvent = (block: number, stateName: 'Pending' | 'Expired' = 'Pending') => ({
  change: 'updated',
  position: { blockNumber: String(block), logIndex: 0 },
  jobId: '7',
  job: jobAt({ stateName, blockNumber: block }),
})
const head = (block: number) => ({ blockNumber: String(block), blockHash: `0x${'ab'.repeat(32)}` })

let server: FeedServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

async function serve(events: FeedHandler[]): Promise<FeedServer> {
  server = await startFeedServer({ events })
  return server
}

/**
 * The first `count` events of `iterator`, then stops it (which closes its connection). `events`
 * fills as they come: a handler that cuts a connection waits for what it sent to be read first,
 * as fetch drops what it holds unread when a body fails.
 */
async function take(iterator: AsyncGenerator<MarketEvent, void, undefined>, count: number, events: MarketEvent[] = []): Promise<MarketEvent[]> {
  for await (const event of iterator) {
    events.push(event)
    if (events.length === count) break
  }
  return events
}

test('default: the stream as typed events, in order, with their ids; comments, retry and unknown event types are not events', async () => {
  const { baseUrl, eventRequests } = await serve([
    (stream) => {
      stream.open()
      stream.write(': keep-alive\n\n')
      stream.send({ id: id(10), event: 'job', data: jobEvent(10) })
      stream.send({ id: id(10, 'h'), event: 'head', data: head(10) })
      stream.send({ event: 'reorg', data: { ancestor: head(8), depth: 2 } })
      stream.send({ event: 'job', data: { change: 'removed', position: { blockNumber: '8', logIndex: null }, jobId: '7', job: null } })
      stream.send({ id: id(11, 'h'), event: 'something-new', data: { later: true } })
      stream.send({ id: id(12), event: 'service', data: { change: 'created', position: { blockNumber: '12', logIndex: 0 }, serviceId: '1', service: null } })
    },
  ])
  const client = createMarketClient({ baseUrl })
  expect(await take(client.events(), 5)).toEqual([
    { event: 'job', id: id(10), data: jobEvent(10) },
    { event: 'head', id: id(10, 'h'), data: head(10) },
    { event: 'reorg', data: { ancestor: head(8), depth: 2 } },
    { event: 'job', data: { change: 'removed', position: { blockNumber: '8', logIndex: null }, jobId: '7', job: null } },
    { event: 'service', id: id(12), data: { change: 'created', position: { blockNumber: '12', logIndex: 0 }, serviceId: '1', service: null } },
  ])
  expect(eventRequests).toHaveLength(1)
  expect(eventRequests[0]!.headers.accept).toBe('text/event-stream')
  expect(eventRequests[0]!.headers['last-event-id']).toBeUndefined()
})

describe('filters', () => {
  test('each filter is a query parameter, lists comma-separated', async () => {
    const { baseUrl, eventRequests } = await serve([(stream) => (stream.open(), stream.send({ id: id(1, 'h'), event: 'head', data: head(1) }))])
    const client = createMarketClient({ baseUrl: `${baseUrl}/` })
    await take(client.events({ jobs: ['1', 2n], seller: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', buyer: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', serviceId: 3n, types: ['job', 'service'] }), 1)
    const { pathname, searchParams } = eventRequests[0]!.url
    expect(pathname).toBe('/v1/events')
    expect(Object.fromEntries(searchParams)).toEqual({
      jobs: '1,2',
      seller: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
      buyer: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      serviceId: '3',
      types: 'job,service',
    })
  })
})

describe('resuming', () => {
  test('a connection cut in the middle of an event: the next one sends Last-Event-ID, and the cut event comes once, whole', async () => {
    const seen: MarketEvent[] = []
    const { baseUrl, eventRequests } = await serve([
      async (stream) => {
        stream.open()
        stream.send({ id: id(10), event: 'job', data: jobEvent(10) })
        await expect.poll(() => seen.length).toBe(1)
        stream.write(`id: ${id(11)}\nevent: job\ndata: {"change":"upd`)
        stream.cut()
      },
      (stream) => {
        stream.open()
        stream.send({ id: id(11), event: 'job', data: jobEvent(11, 'Expired') })
      },
    ])
    const events = await take(createMarketClient({ baseUrl }).events({ jobs: ['7'] }), 2, seen)
    expect(events.map((event) => event.id)).toEqual([id(10), id(11)])
    expect(events[1]!.data).toEqual(jobEvent(11, 'Expired'))
    expect(eventRequests.map((request) => request.headers['last-event-id'])).toEqual([undefined, id(10)])
    // The filters are sent again with the id.
    expect(eventRequests[1]!.url.searchParams.get('jobs')).toBe('7')
  })

  test('the indexer ending a stream (its longest life): the next connection resumes from the last id, a head\'s included', async () => {
    const { baseUrl, eventRequests } = await serve([
      (stream) => {
        stream.open()
        stream.send({ id: id(10), event: 'job', data: jobEvent(10) })
        stream.send({ id: id(12, 'h'), event: 'head', data: head(12) })
        stream.end()
      },
      (stream) => (stream.open(), stream.send({ id: id(13, 'h'), event: 'head', data: head(13) })),
    ])
    const events = await take(createMarketClient({ baseUrl }).events(), 3)
    expect(events.map((event) => event.event)).toEqual(['job', 'head', 'head'])
    expect(eventRequests.map((request) => request.headers['last-event-id'])).toEqual([undefined, id(12, 'h')])
  })

  test('a reorg and its corrections carry no id: a drop after them resumes from the id before the reorg', async () => {
    const seen: MarketEvent[] = []
    const { baseUrl, eventRequests } = await serve([
      async (stream) => {
        stream.open()
        stream.send({ id: id(10), event: 'job', data: jobEvent(10) })
        stream.send({ event: 'reorg', data: { ancestor: head(9), depth: 1 } })
        stream.send({ event: 'job', data: { ...jobEvent(9), position: { blockNumber: '9', logIndex: null } } })
        await expect.poll(() => seen.length).toBe(3)
        stream.cut()
      },
      (stream) => (stream.open(), stream.send({ id: id(11, 'h'), event: 'head', data: head(11) })),
    ])
    expect((await take(createMarketClient({ baseUrl }).events(), 4, seen)).map((event) => event.event)).toEqual(['job', 'reorg', 'job', 'head'])
    expect(eventRequests.map((request) => request.headers['last-event-id'])).toEqual([undefined, id(10)])
  })

  test('after: the first request already sends it as Last-Event-ID', async () => {
    const { baseUrl, eventRequests } = await serve([(stream) => (stream.open(), stream.send({ id: id(21, 'h'), event: 'head', data: head(21) }))])
    await take(createMarketClient({ baseUrl }).events({}, { after: id(20) }), 1)
    expect(eventRequests[0]!.headers['last-event-id']).toBe(id(20))
  })

  test('reset: yielded with its cursor, the stream goes on, and a later resume starts from the cursor', async () => {
    const reset = { reason: 'cursor_too_old', message: 'Read the REST API again, then resume after this id.', cursor: id(50, 'c') }
    const seen: MarketEvent[] = []
    const { baseUrl, eventRequests } = await serve([
      async (stream) => {
        stream.open()
        stream.send({ id: id(50, 'c'), event: 'reset', data: reset })
        stream.send({ id: id(51), event: 'job', data: jobEvent(51) })
        await expect.poll(() => seen.length).toBe(2)
        stream.cut()
      },
      (stream) => (stream.open(), stream.send({ id: id(52, 'h'), event: 'head', data: head(52) })),
    ])
    const events = await take(createMarketClient({ baseUrl }).events({}, { after: id(1) }), 3, seen)
    expect(events[0]).toEqual({ event: 'reset', id: id(50, 'c'), data: reset })
    expect(events.map((event) => event.event)).toEqual(['reset', 'job', 'head'])
    expect(eventRequests.map((request) => request.headers['last-event-id'])).toEqual([id(1), id(51)])
  })

  test('a connection silent past idleTimeout counts as lost and is made again', async () => {
    const { baseUrl, eventRequests } = await serve([
      (stream) => (stream.open(), stream.send({ id: id(10), event: 'job', data: jobEvent(10) })),
      (stream) => (stream.open(), stream.send({ id: id(11, 'h'), event: 'head', data: head(11) })),
    ])
    const events = await take(createMarketClient({ baseUrl }).events({}, { idleTimeout: 300 }), 2)
    expect(events.map((event) => event.id)).toEqual([id(10), id(11, 'h')])
    await eventRequests[0]!.closed
    expect(eventRequests[1]!.headers['last-event-id']).toBe(id(10))
  })
})

describe('waiting', () => {
  test.each([
    [429, 'too_many_streams'],
    [503, 'feed_not_ready'],
  ])('%i with Retry-After: the next request comes after it, then the stream', async (status, code) => {
    const { baseUrl, eventRequests } = await serve([
      (stream) => stream.refuse(status, { code, retryAfter: '1' }),
      (stream) => (stream.open(), stream.send({ id: id(10), event: 'job', data: jobEvent(10) })),
    ])
    const events = await take(createMarketClient({ baseUrl }).events(), 1)
    expect(events.map((event) => event.id)).toEqual([id(10)])
    expect(eventRequests).toHaveLength(2)
    // Never before Retry-After (a lower bound, not a speed target), at most a quarter later plus the request.
    expect(eventRequests[1]!.at - eventRequests[0]!.at).toBeGreaterThanOrEqual(1_000)
  })

  test('a connection lost before any answer is made again after the retry time (3 s before any stream says otherwise)', async () => {
    const { baseUrl, eventRequests } = await serve([
      (stream) => stream.request.socket.destroy(),
      (stream) => (stream.open(), stream.send({ id: id(10), event: 'job', data: jobEvent(10) })),
    ])
    expect((await take(createMarketClient({ baseUrl }).events(), 1)).map((event) => event.id)).toEqual([id(10)])
    expect(eventRequests[1]!.at - eventRequests[0]!.at).toBeGreaterThanOrEqual(3_000)
  })

  test('429 with Retry-After as an HTTP date is waited for too', async () => {
    const { baseUrl, eventRequests } = await serve([
      (stream) => stream.refuse(429, { code: 'rate_limited', retryAfter: new Date(Date.now() + 2_000).toUTCString() }),
      (stream) => (stream.open(), stream.send({ id: id(10), event: 'job', data: jobEvent(10) })),
    ])
    await take(createMarketClient({ baseUrl }).events(), 1)
    // The date has a one-second resolution: at least a second.
    expect(eventRequests[1]!.at - eventRequests[0]!.at).toBeGreaterThanOrEqual(1_000)
  })
})

describe('failing', () => {
  test('404, an indexer without the feed: FeedRefusedError, after one request', async () => {
    const { baseUrl, eventRequests } = await serve([(stream) => stream.refuse(404, { code: 'not_found', message: 'Nothing at "/v1/events".' })])
    const error = await take(createMarketClient({ baseUrl }).events(), 1).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(FeedRefusedError)
    expect(error).toMatchObject({ status: 404, code: 'feed_refused', message: `The indexer at "${baseUrl}" has no live feed: GET /v1/events answered HTTP 404.` })
    expect(eventRequests).toHaveLength(1)
  })

  test('400, a bad filter: FeedRefusedError quoting the indexer', async () => {
    const { baseUrl } = await serve([(stream) => stream.refuse(400, { code: 'invalid_parameter', message: 'The query parameter "jobs" is invalid.' })])
    const error = await take(createMarketClient({ baseUrl }).events({ jobs: ['01'] }), 1).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(FeedRefusedError)
    expect((error as FeedRefusedError).message).toBe(
      `The indexer at "${baseUrl}" refused the feed's filters or event id: HTTP 400 (invalid_parameter: The query parameter "jobs" is invalid.).`,
    )
    expect((error as FeedRefusedError).details).toBe('{"error":{"code":"invalid_parameter","message":"The query parameter \\"jobs\\" is invalid."}}')
  })

  test('another status (500): FeedRefusedError', async () => {
    const { baseUrl } = await serve([(stream) => stream.refuse(500, { code: 'internal_error' })])
    await expect(take(createMarketClient({ baseUrl }).events(), 1)).rejects.toThrow(
      `Following the feed of "${baseUrl}" failed: GET /v1/events answered HTTP 500 where 200, 429 or 503 was expected.`,
    )
  })

  test('200 that is not an event stream (a page): FeedProtocolError', async () => {
    const { baseUrl } = await serve([
      (stream) => {
        stream.response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html>')
      },
    ])
    await expect(take(createMarketClient({ baseUrl }).events(), 1)).rejects.toThrow(
      new FeedProtocolError({ baseUrl, problem: 'HTTP 200 with "text/html", not an event stream' }),
    )
  })

  test('an event whose data is not JSON: FeedProtocolError caused by the SyntaxError', async () => {
    const { baseUrl } = await serve([(stream) => (stream.open(), stream.write('id: 31337-1-1a2b3c4d5e6f7a8b-0\nevent: job\ndata: {not json\n\n'))])
    const error = await take(createMarketClient({ baseUrl }).events(), 1).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(FeedProtocolError)
    expect((error as Error).message).toBe(`Following the feed of "${baseUrl}" failed: GET /v1/events answered a "job" event whose data is not JSON.`)
    expect((error as Error).cause).toBeInstanceOf(SyntaxError)
  })

  describe('validateResponse', () => {
    test('each event is checked against FeedEventSchema: a valid one passes as it is', async () => {
      const { baseUrl } = await serve([(stream) => (stream.open(), stream.send({ id: id(10), event: 'job', data: jobEvent(10) }))])
      const client = createMarketClient({ baseUrl, validateResponse: true })
      expect(await take(client.events(), 1)).toEqual([{ event: 'job', id: id(10), data: jobEvent(10) }])
    })

    test('an event outside the contract: FeedProtocolError caused by the ZodError', async () => {
      const { baseUrl } = await serve([(stream) => (stream.open(), stream.send({ id: id(10), event: 'job', data: { ...jobEvent(10), change: 'moved' } }))])
      const error = await take(createMarketClient({ baseUrl, validateResponse: true }).events(), 1).catch((error: unknown) => error)
      expect((error as Error).message).toBe(`Following the feed of "${baseUrl}" failed: GET /v1/events answered a "job" event outside the contract (FeedEventSchema).`)
      expect((error as Error).cause).toMatchObject({ name: 'ZodError' })
    })

    test('off (the default): the same event is yielded unchecked', async () => {
      const { baseUrl } = await serve([(stream) => (stream.open(), stream.send({ id: id(10), event: 'job', data: { ...jobEvent(10), change: 'moved' } }))])
      expect((await take(createMarketClient({ baseUrl }).events(), 1))[0]!.data).toMatchObject({ change: 'moved' })
    })
  })
})

describe('abort', () => {
  test('while the stream is open: the iteration ends quietly and the connection closes', async () => {
    const { baseUrl, eventRequests } = await serve([(stream) => (stream.open(), stream.send({ id: id(10), event: 'job', data: jobEvent(10) }))])
    const controller = new AbortController()
    const events: MarketEvent[] = []
    for await (const event of createMarketClient({ baseUrl }).events({}, { signal: controller.signal })) {
      events.push(event)
      setTimeout(() => controller.abort(), 50)
    }
    expect(events).toHaveLength(1)
    await eventRequests[0]!.closed
  })

  test('while waiting out a Retry-After: ends at once, with no other request', async () => {
    const { baseUrl, eventRequests } = await serve([(stream) => stream.refuse(503, { code: 'feed_not_ready', retryAfter: '3600' })])
    const controller = new AbortController()
    const iteration = take(createMarketClient({ baseUrl }).events({}, { signal: controller.signal }), 1)
    await expect.poll(() => eventRequests.length).toBe(1)
    controller.abort()
    expect(await iteration).toEqual([])
    expect(eventRequests).toHaveLength(1)
  })

  test('before the indexer answers: ends quietly', async () => {
    const { baseUrl, eventRequests } = await serve([() => undefined])
    const controller = new AbortController()
    const iteration = take(createMarketClient({ baseUrl }).events({}, { signal: controller.signal }), 1)
    await expect.poll(() => eventRequests.length).toBe(1)
    controller.abort()
    expect(await iteration).toEqual([])
    await eventRequests[0]!.closed
  })

  test('breaking out of the loop closes the connection', async () => {
    const { baseUrl, eventRequests } = await serve([(stream) => (stream.open(), stream.send({ id: id(10), event: 'job', data: jobEvent(10) }))])
    expect(await take(createMarketClient({ baseUrl }).events(), 1)).toHaveLength(1)
    await eventRequests[0]!.closed
  })
})
