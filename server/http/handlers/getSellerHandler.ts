import type { MarketContract } from '../../../contract/router.ts'
import { getSeller, toSellerJobsScope } from '../../readers/getSeller.ts'
import { isJobCursorOf } from '../../readers/jobCursor.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetSellerHandler = ContractHandler<MarketContract['sellers']['getSeller']>

/** `GET /v1/sellers/:address`; a seller with nothing is a 200 with empty arrays. */
export function getSellerHandler({ store }: { store: StoreReader }): GetSellerHandler {
  return {
    // A cursor that will be refused gets no ETag: `If-None-Match: *` must not turn its 400 into a 304.
    version: ({ params, query }) => (isJobCursorOf(query.cursor, { scope: toSellerJobsScope(params.address) }) ? store.version : undefined),
    answer: ({ params, query }) => ({ status: 200, body: getSeller(store, { address: params.address, limit: query.limit, cursor: query.cursor }) }),
  }
}
