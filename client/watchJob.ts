import type { JobFeedData } from '../contract/feed.ts'
import type { JobDetail, JobStateName } from '../contract/job.ts'
import { FeedProtocolError, FeedRefusedError, JobWatchError } from '../errors/client.ts'
import type { MarketClient } from './createMarketClient.ts'
import { feedConnections } from './feedConnections.ts'
import { followFeed, type FeedConnection } from './followFeed.ts'
import { sleep } from './sleep.ts'

/**
 * States after which a job does not move on its own: the seller was paid, the buyer reclaimed the
 * escrow, or the arbiter slashed the seller. A Settled job can still be disputed: to follow a
 * dispute, watch again with `until: ['Slashed']`.
 */
export const finalJobStates = ['Settled', 'Expired', 'Slashed'] as const satisfies readonly JobStateName[]

export type WatchJobParameters = {
  /** The job id as a decimal string (or bigint). */
  jobId: string | bigint
  /** Ends the iteration (without an error) when aborted, also in the middle of a request. */
  signal?: AbortSignal
  /** Milliseconds between two polls, when the job is polled (an indexer without the live feed); default 1000. */
  pollingInterval?: number
  /** The iteration ends after yielding a job in one of these states; default `finalJobStates`. */
  until?: readonly JobStateName[]
}

export type WatchJobReturnType = AsyncGenerator<JobDetail, void, undefined>

/**
 * Yields the job each time its state changes, the first answer included, and ends after a state
 * of `until`. It reads the job once (`GET /v1/jobs/:id`) and yields it at once, then follows the
 * live feed for this job (`GET /v1/events?jobs=<id>`): each change arrives when the indexer
 * applies it, the connection is made again after a drop (resuming from the last event id, and
 * reading the job again, a conditional GET, each time a connection opens, so nothing between two
 * is missed), and a reorg's corrections are followed, so a state can go back. A job the indexer
 * does not know yet (404, e.g. just created) is waited for.
 *
 * Against an indexer without the feed (`/v1/events` answers 404), or when the feed fails in a way
 * that waiting does not mend (another refusal, an answer that is not the feed), or for a client
 * that `createMarketClient` did not make (it knows no feed), it polls instead, as before the
 * feed: a conditional GET every `pollingInterval` (`If-None-Match` with the last ETag, so while
 * nothing changes the indexer answers 304 with no body). A REST answer other than 200, 304 or
 * 404, or no answer, throws a `JobWatchError`; an abort ends the iteration quietly.
 *
 * ```ts
 * for await (const job of watchJob(client, { jobId: '42', signal })) console.log(job.stateName)
 * ```
 */
export async function* watchJob(
  client: MarketClient,
  { jobId, signal, pollingInterval = 1_000, until = finalJobStates }: WatchJobParameters,
): WatchJobReturnType {
  const id = String(jobId)
  const watched: Watched = { state: undefined, position: undefined, etag: undefined }
  const first = await readJob(client, { id, watched, signal })
  if (signal?.aborted === true) return
  if (first !== undefined && offer(watched, first, positionOfJob(first))) {
    yield first
    if (until.includes(first.stateName)) return
  }
  const connection = feedConnections.get(client)
  if (connection !== undefined) {
    try {
      return yield* followJob(client, connection, { id, watched, signal, until })
    } catch (error) {
      if (!(error instanceof FeedRefusedError || error instanceof FeedProtocolError)) throw error
    }
  }
  yield* pollJob(client, { id, watched, signal, pollingInterval, until })
}

/** A chain position: block, then log (a state no single log gives stands at the end of its block). */
type Position = { blockNumber: bigint; logIndex: number }

/** What the watcher knows: the state it last yielded, the newest position it saw, the last ETag. */
type Watched = { state: number | undefined; position: Position | undefined; etag: string | undefined }

type FollowJobParameters = { id: string; watched: Watched; signal: AbortSignal | undefined; until: readonly JobStateName[] }

/** The feed of one job: its job events, and a read of the job each time a connection opens or the feed says to read again. */
async function* followJob(client: MarketClient, connection: FeedConnection, { id, watched, signal, until }: FollowJobParameters): WatchJobReturnType {
  for await (const item of followFeed(connection, { filters: { jobs: [id], types: ['job'] }, signal })) {
    let job: JobDetail | undefined
    let position: Position | undefined
    if (item.type === 'open') {
      job = await readJob(client, { id, watched, signal })
      position = job === undefined ? undefined : positionOfJob(job)
    } else if (item.event.event === 'reorg' || item.event.event === 'reset') {
      // A reorg's corrections may stand before what was seen; after a reset, REST is the truth.
      watched.position = undefined
      if (item.event.event === 'reset') {
        watched.etag = undefined
        job = await readJob(client, { id, watched, signal })
      }
    } else if (item.event.event === 'job' && item.event.data.jobId === id && item.event.data.job !== null) {
      job = item.event.data.job
      position = fromFeedPosition(item.event.data.position)
    }
    if (signal?.aborted === true) return
    if (job !== undefined && offer(watched, job, position)) {
      yield job
      if (until.includes(job.stateName)) return
    }
  }
}

type PollJobParameters = FollowJobParameters & { pollingInterval: number }

/** Polling, for an indexer without the feed: a conditional GET every `pollingInterval`. */
async function* pollJob(client: MarketClient, { id, watched, signal, pollingInterval, until }: PollJobParameters): WatchJobReturnType {
  for (;;) {
    await sleep(pollingInterval, signal)
    if (signal?.aborted === true) return
    // undefined after an abort too: the next sleep ends at once.
    const job = await readJob(client, { id, watched, signal })
    // One source in order: no position to compare, every change of state counts.
    if (job !== undefined && offer(watched, job, undefined)) {
      yield job
      if (until.includes(job.stateName)) return
    }
  }
}

/**
 * Takes a state the job was seen in at `position`: true when it is news to yield (another state),
 * false when it is the same state or older than a position already seen.
 */
function offer(watched: Watched, job: JobDetail, position: Position | undefined): boolean {
  if (position !== undefined && watched.position !== undefined && isBefore(position, watched.position)) return false
  if (position !== undefined) watched.position = position
  if (job.state === watched.state) return false
  watched.state = job.state
  return true
}

function isBefore(a: Position, b: Position): boolean {
  return a.blockNumber < b.blockNumber || (a.blockNumber === b.blockNumber && a.logIndex < b.logIndex)
}

/** Where a job read by REST stands: its last event. */
function positionOfJob(job: JobDetail): Position | undefined {
  const last = job.events.at(-1)
  return last === undefined ? undefined : { blockNumber: BigInt(last.blockNumber), logIndex: last.logIndex }
}

function fromFeedPosition({ blockNumber, logIndex }: JobFeedData['position']): Position {
  return { blockNumber: BigInt(blockNumber), logIndex: logIndex ?? Number.POSITIVE_INFINITY }
}

/**
 * `GET /v1/jobs/:id`, conditional on the last ETag: the job on 200, undefined on 304, 404 (not
 * indexed yet) or an abort; anything else throws a `JobWatchError`.
 */
async function readJob(client: MarketClient, { id, watched, signal }: { id: string; watched: Watched; signal: AbortSignal | undefined }): Promise<JobDetail | undefined> {
  let response: Awaited<ReturnType<MarketClient['jobs']['getJob']>>
  try {
    response = await client.jobs.getJob({
      params: { id },
      extraHeaders: watched.etag === undefined ? {} : { 'if-none-match': watched.etag },
      fetchOptions: signal === undefined ? {} : { signal },
    })
  } catch (cause) {
    if (signal?.aborted === true) return undefined
    throw new JobWatchError({ jobId: id, cause })
  }
  // 304 is not among the contract's statuses: it answers a conditional request, not the route.
  const status: number = response.status
  if (response.status === 200) {
    watched.etag = response.headers.get('etag') ?? undefined
    return response.body
  }
  if (status !== 304 && status !== 404) throw new JobWatchError({ jobId: id, status, body: response.body })
  return undefined
}
