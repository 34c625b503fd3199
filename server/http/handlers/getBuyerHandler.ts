import type { MarketContract } from '../../../contract/router.ts'
import { getBuyer, toBuyerJobsScope } from '../../readers/getBuyer.ts'
import { isJobCursorOf } from '../../readers/jobCursor.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetBuyerHandler = ContractHandler<MarketContract['buyers']['getBuyer']>

/** `GET /v1/buyers/:address`; an address that paid for nothing is a 200 with an empty array. */
export function getBuyerHandler({ store }: { store: StoreReader }): GetBuyerHandler {
  return {
    // A cursor that will be refused gets no ETag: `If-None-Match: *` must not turn its 400 into a 304.
    version: ({ params, query }) => (isJobCursorOf(query.cursor, { scope: toBuyerJobsScope(params.address) }) ? store.version : undefined),
    answer: ({ params, query }) => ({ status: 200, body: getBuyer(store, { address: params.address, limit: query.limit, cursor: query.cursor }) }),
  }
}
