import type { JobDetail, JobStateName } from '../contract/job.ts'
import { JobWatchError } from '../errors/client.ts'
import type { MarketClient } from './createMarketClient.ts'

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
  /** Milliseconds between two polls; default 1000. */
  pollingInterval?: number
  /** The iteration ends after yielding a job in one of these states; default `finalJobStates`. */
  until?: readonly JobStateName[]
}

export type WatchJobReturnType = AsyncGenerator<JobDetail, void, undefined>

/**
 * Yields the job each time its state changes, the first answer included, and ends after a state
 * of `until`. Each poll is a conditional GET (`If-None-Match` with the last ETag), so while
 * nothing changes the indexer answers 304 with no body. A job the indexer does not know yet (404,
 * e.g. just created) is polled until it appears; any other answer throws a `JobWatchError`.
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
  let etag: string | undefined
  let lastState: number | undefined
  // A function, not a narrowed property: the signal can be aborted while a request is awaited.
  const aborted = (): boolean => signal?.aborted === true
  while (!aborted()) {
    let response: Awaited<ReturnType<MarketClient['jobs']['getJob']>>
    try {
      response = await client.jobs.getJob({
        params: { id },
        extraHeaders: etag === undefined ? {} : { 'if-none-match': etag },
        fetchOptions: signal === undefined ? {} : { signal },
      })
    } catch (cause) {
      if (aborted()) return
      throw new JobWatchError({ jobId: id, cause })
    }
    // 304 is not among the contract's statuses: it answers a conditional request, not the route.
    const status: number = response.status
    if (response.status === 200) {
      etag = response.headers.get('etag') ?? undefined
      const job = response.body
      if (job.state !== lastState) {
        lastState = job.state
        yield job
        if (until.includes(job.stateName)) return
      }
    } else if (status !== 304 && status !== 404) {
      throw new JobWatchError({ jobId: id, status, body: response.body })
    }
    await sleep(pollingInterval, signal)
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}
