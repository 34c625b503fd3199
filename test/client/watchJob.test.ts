import { afterEach, describe, expect, test } from 'vitest'
import { createMarketClient } from '../../client/createMarketClient.ts'
import { watchJob } from '../../client/watchJob.ts'
import type { JobDetail, JobStateName } from '../../contract/job.ts'
import { JobWatchError } from '../../errors/client.ts'
import { type FeedHandler, type FeedServer, jobAt, startFeedServer } from './support/startFeedServer.ts'

// watchJob against a small indexer of the test's own (test/client/support/startFeedServer.ts):
// it reads the job once, follows the job's live feed, and polls where there is no feed.

const cursor = (block: number): string => `31337-${block}-1a2b3c4d5e6f7a8b-0`

/** A `job` event of job 7 in `stateName`, at `blockNumber` (log 0, or the end of the block for a correction). */
const jobEvent = (stateName: JobStateName, blockNumber: number, { correction = false } = {}) => ({
  change: 'updated',
  position: { blockNumber: String(blockNumber), logIndex: correction ? null : 0 },
  jobId: '7',
  job: jobAt({ stateName, blockNumber }),
})

let server: FeedServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

async function serve(job: JobDetail | undefined, events: FeedHandler[]): Promise<FeedServer> {
  server = await startFeedServer({ job, events })
  return server
}

/** The states watchJob yields for job 7, until it ends. */
async function statesOf(baseUrl: string, parameters: Omit<Parameters<typeof watchJob>[1], 'jobId'> = {}): Promise<JobStateName[]> {
  const states: JobStateName[] = []
  for await (const job of watchJob(createMarketClient({ baseUrl }), { jobId: '7', pollingInterval: 50, ...parameters })) states.push(job.stateName)
  return states
}

test('default: yields the job as REST answers it at once, then follows its feed (jobs=<id>) to a final state, and closes the stream', async () => {
  let yieldedFirst = false
  const { baseUrl, eventRequests, jobRequests } = await serve(jobAt({ stateName: 'Pending', blockNumber: 5 }), [
    async (stream) => {
      stream.open()
      // The first state was yielded before the stream says anything.
      await expect.poll(() => yieldedFirst).toBe(true)
      stream.send({ id: cursor(9), event: 'job', data: jobEvent('Expired', 9) })
    },
  ])
  const states: JobStateName[] = []
  for await (const job of watchJob(createMarketClient({ baseUrl }), { jobId: 7n })) {
    states.push(job.stateName)
    yieldedFirst = true
  }
  expect(states).toEqual(['Pending', 'Expired'])
  expect(Object.fromEntries(eventRequests[0]!.url.searchParams)).toEqual({ jobs: '7', types: 'job' })
  await eventRequests[0]!.closed
  // Read once, and once more (conditionally) when the stream opened: nothing polls.
  expect(jobRequests.map(({ status, headers }) => [status, headers['if-none-match'] !== undefined])).toEqual([
    [200, false],
    [304, true],
  ])
})

test('a job already in a state of `until` is yielded once, without a stream', async () => {
  const { baseUrl, eventRequests } = await serve(jobAt({ stateName: 'Expired', blockNumber: 9 }), [(stream) => stream.open()])
  expect(await statesOf(baseUrl)).toEqual(['Expired'])
  expect(eventRequests).toHaveLength(0)
})

test('a change between the first read and the stream is not missed: the job is read again when the stream opens', async () => {
  const { baseUrl } = await serve(jobAt({ stateName: 'Pending', blockNumber: 5 }), [
    (stream) => {
      server!.setJob(jobAt({ stateName: 'Expired', blockNumber: 9 }))
      stream.open()
    },
  ])
  expect(await statesOf(baseUrl)).toEqual(['Pending', 'Expired'])
})

test('a job the indexer does not know yet (404) is waited for on the stream', async () => {
  const { baseUrl } = await serve(undefined, [
    (stream) => {
      stream.open()
      stream.send({ id: cursor(5), event: 'job', data: { ...jobEvent('Pending', 5), change: 'created' } })
      stream.send({ id: cursor(9), event: 'job', data: jobEvent('Expired', 9) })
    },
  ])
  expect(await statesOf(baseUrl)).toEqual(['Pending', 'Expired'])
})

test('the same state again (another event of the job, a replay) is not yielded twice', async () => {
  const { baseUrl } = await serve(jobAt({ stateName: 'Pending', blockNumber: 5 }), [
    (stream) => {
      stream.open()
      stream.send({ id: cursor(5), event: 'job', data: jobEvent('Pending', 5) })
      stream.send({ id: cursor(6), event: 'job', data: jobEvent('Pending', 6) })
      stream.send({ id: cursor(9), event: 'job', data: jobEvent('Expired', 9) })
    },
  ])
  expect(await statesOf(baseUrl)).toEqual(['Pending', 'Expired'])
})

test('an older state replayed after a newer one was read is not yielded', async () => {
  const { baseUrl } = await serve(jobAt({ stateName: 'Disputed', blockNumber: 12 }), [
    (stream) => {
      stream.open()
      stream.send({ id: cursor(9), event: 'job', data: jobEvent('Settled', 9) })
      stream.send({ id: cursor(14), event: 'job', data: jobEvent('Slashed', 14) })
    },
  ])
  expect(await statesOf(baseUrl, { until: ['Slashed'] })).toEqual(['Disputed', 'Slashed'])
})

test("a reorg's corrections are followed, even to a state before what was seen", async () => {
  const { baseUrl } = await serve(jobAt({ stateName: 'Attested', blockNumber: 12 }), [
    (stream) => {
      stream.open()
      stream.send({ event: 'reorg', data: { ancestor: { blockNumber: '10', blockHash: `0x${'ab'.repeat(32)}` }, depth: 2 } })
      stream.send({ event: 'job', data: jobEvent('Pending', 10, { correction: true }) })
      stream.send({ id: cursor(11), event: 'job', data: jobEvent('Settled', 11) })
    },
  ])
  expect(await statesOf(baseUrl)).toEqual(['Attested', 'Pending', 'Settled'])
})

test('a reset: the job is read again by REST, unconditionally, and its state yielded', async () => {
  const reset = { reason: 'cursor_too_old', message: 'Read the REST API again.', cursor: `31337-20-1a2b3c4d5e6f7a8b-c` }
  const { baseUrl, jobRequests } = await serve(jobAt({ stateName: 'Pending', blockNumber: 5 }), [
    async (stream) => {
      stream.open()
      await expect.poll(() => jobRequests.length).toBe(2)
      server!.setJob(jobAt({ stateName: 'Expired', blockNumber: 20 }))
      stream.send({ id: reset.cursor, event: 'reset', data: reset })
    },
  ])
  expect(await statesOf(baseUrl)).toEqual(['Pending', 'Expired'])
  expect(jobRequests.map(({ status, headers }) => [status, headers['if-none-match'] !== undefined])).toEqual([
    [200, false],
    [304, true],
    [200, false],
  ])
})

test('a dropped stream: resumed with Last-Event-ID, the job read again on the new connection', async () => {
  const states: JobStateName[] = []
  const { baseUrl, eventRequests, jobRequests } = await serve(jobAt({ stateName: 'Pending', blockNumber: 5 }), [
    async (stream) => {
      stream.open()
      stream.send({ id: cursor(6), event: 'job', data: jobEvent('Attested', 6) })
      // Cut once the event was read: fetch drops what it holds unread when a body fails.
      await expect.poll(() => states).toContain('Attested')
      stream.cut()
    },
    (stream) => {
      stream.open()
      stream.send({ id: cursor(9), event: 'job', data: jobEvent('Expired', 9) })
    },
  ])
  for await (const job of watchJob(createMarketClient({ baseUrl }), { jobId: '7' })) states.push(job.stateName)
  expect(states).toEqual(['Pending', 'Attested', 'Expired'])
  expect(eventRequests.map((request) => request.headers['last-event-id'])).toEqual([undefined, cursor(6)])
  // The first read, then one per connection.
  expect(jobRequests).toHaveLength(3)
})

describe('polling, where the feed will not serve', () => {
  test('an indexer without the feed (404 on /v1/events): conditional GETs every pollingInterval', async () => {
    const { baseUrl, eventRequests, jobRequests } = await serve(jobAt({ stateName: 'Pending', blockNumber: 5 }), [
      (stream) => stream.refuse(404, { code: 'not_found' }),
    ])
    const watching = statesOf(baseUrl)
    await expect.poll(() => jobRequests.length).toBeGreaterThanOrEqual(3)
    server!.setJob(jobAt({ stateName: 'Expired', blockNumber: 9 }))
    expect(await watching).toEqual(['Pending', 'Expired'])
    expect(eventRequests).toHaveLength(1)
    expect(jobRequests.slice(1, 3).map(({ status, headers }) => [status, headers['if-none-match'] !== undefined])).toEqual([
      [304, true],
      [304, true],
    ])
  })

  test('a feed that is not one (200 text/html): polls', async () => {
    const { baseUrl, jobRequests } = await serve(jobAt({ stateName: 'Pending', blockNumber: 5 }), [
      (stream) => {
        stream.response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html>')
      },
    ])
    const watching = statesOf(baseUrl)
    await expect.poll(() => jobRequests.length).toBeGreaterThanOrEqual(2)
    server!.setJob(jobAt({ stateName: 'Expired', blockNumber: 9 }))
    expect(await watching).toEqual(['Pending', 'Expired'])
  })

  test('a 429 is waited out on the stream, not a reason to poll', async () => {
    const { baseUrl, eventRequests, jobRequests } = await serve(jobAt({ stateName: 'Pending', blockNumber: 5 }), [
      (stream) => stream.refuse(429, { code: 'too_many_streams', retryAfter: '1' }),
      (stream) => (stream.open(), stream.send({ id: cursor(9), event: 'job', data: jobEvent('Expired', 9) })),
    ])
    expect(await statesOf(baseUrl)).toEqual(['Pending', 'Expired'])
    expect(eventRequests).toHaveLength(2)
    expect(jobRequests).toHaveLength(2)
  })
})

test('a REST answer outside 200, 304 and 404 throws a JobWatchError', async () => {
  const { baseUrl } = await serve(jobAt({ stateName: 'Pending', blockNumber: 5 }), [(stream) => stream.open()])
  server!.setJob({ status: 503 })
  const error = await statesOf(baseUrl).catch((error: unknown) => error)
  expect(error).toBeInstanceOf(JobWatchError)
  expect(error).toMatchObject({ status: 503, message: 'Watching job "7" failed: the indexer answered HTTP 503 where 200, 304 or 404 was expected.' })
})

describe('abort', () => {
  test('while following the stream: ends quietly and closes the connection', async () => {
    const { baseUrl, eventRequests } = await serve(jobAt({ stateName: 'Pending', blockNumber: 5 }), [(stream) => stream.open()])
    const controller = new AbortController()
    const watching = statesOf(baseUrl, { signal: controller.signal })
    await expect.poll(() => eventRequests.length).toBe(1)
    controller.abort()
    expect(await watching).toEqual(['Pending'])
    await eventRequests[0]!.closed
  })

  test('while polling: ends quietly', async () => {
    const { baseUrl, jobRequests } = await serve(jobAt({ stateName: 'Pending', blockNumber: 5 }), [(stream) => stream.refuse(404, { code: 'not_found' })])
    const controller = new AbortController()
    const watching = statesOf(baseUrl, { signal: controller.signal, pollingInterval: 60_000 })
    await expect.poll(() => jobRequests.length).toBe(1)
    controller.abort()
    expect(await watching).toEqual(['Pending'])
  })
})

