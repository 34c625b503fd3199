import type { RouterImplementation } from '@ts-rest/fastify'
import type { MarketContract } from '../../../contract/router.ts'
import { getSeller } from '../../readers/getSeller.ts'
import type { Store } from '../../store/createStore.ts'

export type GetSellerHandler = RouterImplementation<MarketContract>['sellers']['getSeller']

/** `GET /v1/sellers/:address`; a seller with nothing is a 200 with empty arrays. */
export function getSellerHandler({ store }: { store: Store }): GetSellerHandler {
  return async ({ params }) => ({ status: 200, body: getSeller(store, { address: params.address }) })
}
