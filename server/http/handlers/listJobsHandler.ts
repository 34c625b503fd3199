import type { MarketContract } from '../../../contract/router.ts'
import { isJobCursorOf } from '../../readers/jobCursor.ts'
import { listJobs, toJobsScope, type JobFilters } from '../../readers/listJobs.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type ListJobsHandler = ContractHandler<MarketContract['jobs']['listJobs']>

function toFilters({ buyer, seller, serviceId, state }: Parameters<ListJobsHandler['answer']>[0]['query']): JobFilters {
  return { buyer, seller, serviceId: serviceId === undefined ? undefined : BigInt(serviceId), states: state }
}

/** `GET /v1/jobs`; the contract's query schema has already checked every parameter and defaulted `limit`. */
export function listJobsHandler({ store }: { store: StoreReader }): ListJobsHandler {
  return {
    // A cursor that will be refused gets no ETag: `If-None-Match: *` must not turn its 400 into a 304.
    version: ({ query }) => (isJobCursorOf(query.cursor, { scope: toJobsScope(toFilters(query)) }) ? store.version : undefined),
    answer: ({ query }) => ({ status: 200, body: listJobs(store, { limit: query.limit, cursor: query.cursor, ...toFilters(query) }) }),
  }
}
