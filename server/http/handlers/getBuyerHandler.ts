import type { MarketContract } from '../../../contract/router.ts'
import { getBuyer } from '../../readers/getBuyer.ts'
import type { Store } from '../../store/createStore.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetBuyerHandler = ContractHandler<MarketContract['buyers']['getBuyer']>

/** `GET /v1/buyers/:address`; an address that paid for nothing is a 200 with an empty array. */
export function getBuyerHandler({ store }: { store: Store }): GetBuyerHandler {
  return {
    version: () => store.version,
    answer: ({ params, query }) => ({ status: 200, body: getBuyer(store, { address: params.address, limit: query.limit, cursor: query.cursor }) }),
  }
}
