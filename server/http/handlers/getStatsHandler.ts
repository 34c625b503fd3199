import type { RouterImplementation } from '@ts-rest/fastify'
import type { MarketContract } from '../../../contract/router.ts'
import { getStats } from '../../readers/getStats.ts'
import type { Store } from '../../store/createStore.ts'

export type GetStatsHandler = RouterImplementation<MarketContract>['stats']['getStats']

/** `GET /v1/stats`. */
export function getStatsHandler({ store }: { store: Store }): GetStatsHandler {
  return async () => ({ status: 200, body: getStats(store) })
}
