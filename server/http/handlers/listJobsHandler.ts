import type { MarketContract } from '../../../contract/router.ts'
import { listJobs } from '../../readers/listJobs.ts'
import type { Store } from '../../store/createStore.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type ListJobsHandler = ContractHandler<MarketContract['jobs']['listJobs']>

/** `GET /v1/jobs`; the contract's query schema has already checked every parameter and defaulted `limit`. */
export function listJobsHandler({ store }: { store: Store }): ListJobsHandler {
  return {
    version: () => store.version,
    answer: ({ query: { limit, cursor, buyer, seller, serviceId, state } }) => ({
      status: 200,
      body: listJobs(store, { limit, cursor, buyer, seller, serviceId: serviceId === undefined ? undefined : BigInt(serviceId), states: state }),
    }),
  }
}
