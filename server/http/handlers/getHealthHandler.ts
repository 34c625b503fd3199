import type { MarketContract } from '../../../contract/router.ts'
import { getHealth } from '../../readers/getHealth.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetHealthHandler = ContractHandler<MarketContract['health']['getHealth']>

/** `GET /healthz`: the same record either way; 503 while the indexer is not in sync. No ETag: the uptime ticks. */
export function getHealthHandler({ store }: { store: StoreReader }): GetHealthHandler {
  return {
    version: () => undefined,
    answer: () => {
      const { ok, health } = getHealth(store)
      return ok ? { status: 200, body: health } : { status: 503, body: health }
    },
  }
}
