import type { MarketContract } from '../../../contract/router.ts'
import { getStats } from '../../readers/getStats.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetStatsHandler = ContractHandler<MarketContract['stats']['getStats']>

/** `GET /v1/stats`. */
export function getStatsHandler({ store }: { store: StoreReader }): GetStatsHandler {
  return {
    version: () => store.version,
    answer: () => ({ status: 200, body: getStats(store) }),
  }
}
