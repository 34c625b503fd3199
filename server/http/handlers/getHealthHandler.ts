import type { RouterImplementation } from '@ts-rest/fastify'
import type { MarketContract } from '../../../contract/router.ts'
import { getHealth } from '../../readers/getHealth.ts'
import type { Store } from '../../store/createStore.ts'

export type GetHealthHandler = RouterImplementation<MarketContract>['health']['getHealth']

/** `GET /healthz`: the same record either way; 503 while the indexer is not in sync. */
export function getHealthHandler({ store }: { store: Store }): GetHealthHandler {
  return async () => {
    const { ok, health } = getHealth(store)
    return ok ? { status: 200, body: health } : { status: 503, body: health }
  }
}
