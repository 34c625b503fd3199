import type { JobDispute } from '../../contract/disputeEvent.ts'
import { JobNotFoundError } from '../../errors/notFound.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { assertServing } from './assertServing.ts'

export type GetJobDisputeParameters = { jobId: bigint }
export type GetJobDisputeReturnType = JobDispute

/** A job's dispute events with their arguments, oldest first (none for a job never disputed); throws JobNotFoundError. */
export function getJobDispute(store: StoreReader, { jobId }: GetJobDisputeParameters): GetJobDisputeReturnType {
  assertServing(store)
  const events = store.jobDispute(jobId)
  if (events === undefined) throw new JobNotFoundError({ jobId })
  return { jobId: jobId.toString(), count: events.length, events: events as JobDispute['events'] }
}
