import type { MarketContract } from '../../../contract/router.ts'
import { listJobs } from '../../readers/listJobs.ts'
import type { Store } from '../../store/createStore.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type ListJobsHandler = ContractHandler<MarketContract['jobs']['listJobs']>

/** `GET /v1/jobs?limit=`; the contract's query schema has already checked and defaulted `limit`. */
export function listJobsHandler({ store }: { store: Store }): ListJobsHandler {
  return {
    version: () => store.version,
    answer: ({ query }) => ({ status: 200, body: listJobs(store, { limit: query.limit }) }),
  }
}
