import type { MarketContract } from '../../../contract/router.ts'
import { getJob } from '../../readers/getJob.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetJobHandler = ContractHandler<MarketContract['jobs']['getJob']>

/**
 * `GET /v1/jobs/:id`; an unknown id throws JobNotFoundError, answered as 404. Tagged with the job's
 * own version, so a poller of one job revalidates with a 304 until that job changes.
 */
export function getJobHandler({ store }: { store: StoreReader }): GetJobHandler {
  return {
    version: ({ params }) => store.job(BigInt(params.id))?.version,
    answer: ({ params }) => ({ status: 200, body: getJob(store, { jobId: BigInt(params.id) }) }),
  }
}
