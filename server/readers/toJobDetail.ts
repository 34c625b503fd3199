import { buildJobDetail } from '../../contract/buildJob.ts'
import type { Job, JobDetail, JobEvent } from '../../contract/job.ts'

/**
 * The job with its history, built by buildJobDetail (one object literal per shape, see there). The
 * events array is the store's, shared, never written.
 */
export function toJobDetail(job: Job, storedEvents: readonly JobEvent[]): JobDetail {
  return buildJobDetail(job, storedEvents as JobEvent[])
}
