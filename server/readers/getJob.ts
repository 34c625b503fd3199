import type { JobDetail } from '../../contract/job.ts'
import { JobNotFoundError } from '../../errors/notFound.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { toJobDetail } from './toJobDetail.ts'
import { assertServing } from './assertServing.ts'

export type GetJobParameters = { jobId: bigint }
export type GetJobReturnType = JobDetail

/**
 * One job with its on-chain history (oldest first); throws JobNotFoundError (`job_not_found`).
 * The store keeps no detail object per job (it would cost ~160 B each): this one is put together
 * per call, a single literal over the stored record and events (tens of nanoseconds).
 */
export function getJob(store: StoreReader, { jobId }: GetJobParameters): GetJobReturnType {
  assertServing(store)
  const stored = store.job(jobId)
  if (stored === undefined) throw new JobNotFoundError({ jobId })
  return toJobDetail(stored.job, stored.events)
}
