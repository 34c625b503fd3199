import type { MarketContract } from '../../../contract/router.ts'
import { getJobDispute } from '../../readers/getJobDispute.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetJobDisputeHandler = ContractHandler<MarketContract['jobs']['getJobDispute']>

/**
 * `GET /v1/jobs/:id/dispute`; an unknown id throws JobNotFoundError, answered as 404. A dispute
 * event changes the job's history, so the job's own version tags this answer too.
 */
export function getJobDisputeHandler({ store }: { store: StoreReader }): GetJobDisputeHandler {
  return {
    version: ({ params }) => store.job(BigInt(params.id))?.version,
    answer: ({ params }) => ({ status: 200, body: getJobDispute(store, { jobId: BigInt(params.id) }) }),
  }
}
