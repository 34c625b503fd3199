import type { Job } from '../../contract/job.ts'
import { compareUintText } from '../../contract/compareUintText.ts'
import type { StoredJob } from '../store/StoreReader.ts'
import { fromJobCursor, toJobCursor, type JobCursorScope } from './jobCursor.ts'

export type PageJobsParameters = {
  /** Where the jobs come from: lists ascending by id that share no job; their union is walked newest first. */
  sources: readonly (readonly StoredJob[])[]
  /** Whether a job of the sources belongs to the list (the filters its source does not already ensure). */
  matches?: ((job: Job) => boolean) | undefined
  limit: number
  /** The `nextCursor` the client was given; absent for the first page. */
  cursor?: string | undefined
  /** The list walked (path and filters): a cursor is valid only for its own. */
  scope: JobCursorScope
}

export type PageJobsReturnType = { jobs: Job[]; nextCursor: string | null }

/**
 * One page of a list of jobs, newest first, from the cursor on, and the next page's cursor (null
 * when no matching job is left below the page). Costs the page's jobs plus the ones the source
 * holds in between that do not match: callers pass the narrowest index they have.
 */
export function pageJobs({ sources, matches, limit, cursor, scope }: PageJobsParameters): PageJobsReturnType {
  const below = cursor === undefined ? undefined : fromJobCursor(cursor, { scope })
  const positions = sources.map((source) => (below === undefined ? source.length : lowerBound(source, below)) - 1)
  const jobs: Job[] = []
  for (;;) {
    // The newest job not yet visited among the sources (usually there is one source).
    let from = -1
    let newest: Job | undefined
    for (let index = 0; index < sources.length; index += 1) {
      const candidate = (sources[index] as readonly StoredJob[])[positions[index] as number]?.job
      if (candidate !== undefined && (newest === undefined || compareUintText(candidate.jobId, newest.jobId) > 0)) {
        from = index
        newest = candidate
      }
    }
    if (newest === undefined) return { jobs, nextCursor: null }
    positions[from] = (positions[from] as number) - 1
    if (matches !== undefined && !matches(newest)) continue
    // A match beyond a full page: there is a next page, starting below the page's last job.
    if (jobs.length === limit) return { jobs, nextCursor: toJobCursor({ jobId: (jobs[limit - 1] as Job).jobId, scope }) }
    jobs.push(newest)
  }
}

/** The position of the first job whose id is not below `jobId`. */
function lowerBound(source: readonly StoredJob[], jobId: string): number {
  let low = 0
  let high = source.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (compareUintText((source[middle] as StoredJob).job.jobId, jobId) < 0) low = middle + 1
    else high = middle
  }
  return low
}
