import { jobsLimit } from '../../contract/jobsQuery.ts'
import type { JobList } from '../../contract/lists.ts'
import type { Store, StoredJob } from '../store/createStore.ts'
import { assertServing } from './assertServing.ts'

export type ListJobsParameters = {
  /** How many jobs at most; the caller validates the range (1..1000 on REST). */
  limit?: number | undefined
}
export type ListJobsReturnType = JobList

/** The most recent jobs, newest first (highest jobId first), without their event history. */
export function listJobs(store: Store, { limit = jobsLimit.default }: ListJobsParameters = {}): ListJobsReturnType {
  assertServing(store)
  const { jobList } = store
  const jobs: JobList['jobs'] = []
  for (let index = jobList.length - 1; index >= 0 && jobs.length < limit; index -= 1) jobs.push((jobList[index] as StoredJob).job)
  return { count: jobs.length, jobs }
}
