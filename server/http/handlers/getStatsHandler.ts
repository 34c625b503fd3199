import type { MarketContract } from '../../../contract/router.ts'
import { getStats } from '../../readers/getStats.ts'
import type { Store } from '../../store/createStore.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetStatsHandler = ContractHandler<MarketContract['stats']['getStats']>

/** `GET /v1/stats`. */
export function getStatsHandler({ store }: { store: Store }): GetStatsHandler {
  return {
    version: () => store.version,
    answer: () => ({ status: 200, body: getStats(store) }),
  }
}
