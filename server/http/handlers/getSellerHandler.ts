import type { MarketContract } from '../../../contract/router.ts'
import { getSeller } from '../../readers/getSeller.ts'
import type { Store } from '../../store/createStore.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetSellerHandler = ContractHandler<MarketContract['sellers']['getSeller']>

/** `GET /v1/sellers/:address`; a seller with nothing is a 200 with empty arrays. */
export function getSellerHandler({ store }: { store: Store }): GetSellerHandler {
  return {
    version: () => store.version,
    answer: ({ params, query }) => ({ status: 200, body: getSeller(store, { address: params.address, limit: query.limit, cursor: query.cursor }) }),
  }
}
