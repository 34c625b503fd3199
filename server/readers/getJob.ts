import type { JobDetail } from '../../contract/job.ts'
import { JobNotFoundError } from '../../errors/notFound.ts'
import type { Store } from '../store/createStore.ts'

export type GetJobParameters = { jobId: bigint }
export type GetJobReturnType = JobDetail

/** One job with its on-chain history (oldest first); throws JobNotFoundError (`job_not_found`). */
export function getJob(store: Store, { jobId }: GetJobParameters): GetJobReturnType {
  const stored = store.job(jobId)
  if (stored === undefined) throw new JobNotFoundError({ jobId })
  return stored.detail
}
