import type { RouterImplementation } from '@ts-rest/fastify'
import type { MarketContract } from '../../../contract/router.ts'
import { listJobs } from '../../readers/listJobs.ts'
import type { Store } from '../../store/createStore.ts'

export type ListJobsHandler = RouterImplementation<MarketContract>['jobs']['listJobs']

/** `GET /v1/jobs?limit=`; the contract's query schema has already checked and defaulted `limit`. */
export function listJobsHandler({ store }: { store: Store }): ListJobsHandler {
  return async ({ query }) => ({ status: 200, body: listJobs(store, { limit: query.limit }) })
}
