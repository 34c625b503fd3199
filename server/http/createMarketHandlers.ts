import type { MarketContract } from '../../contract/router.ts'
import type { Store } from '../store/createStore.ts'
import type { ContractHandlers } from './ContractHandler.ts'
import { getHealthHandler } from './handlers/getHealthHandler.ts'
import { getJobHandler } from './handlers/getJobHandler.ts'
import { getSellerHandler } from './handlers/getSellerHandler.ts'
import { getServiceEventsHandler } from './handlers/getServiceEventsHandler.ts'
import { getServiceHandler } from './handlers/getServiceHandler.ts'
import { getStatsHandler } from './handlers/getStatsHandler.ts'
import { listJobsHandler } from './handlers/listJobsHandler.ts'
import { listServicesHandler } from './handlers/listServicesHandler.ts'

export type CreateMarketHandlersParameters = { store: Store }
export type CreateMarketHandlersReturnType = ContractHandlers<MarketContract>

/** One handler per contract route, each reading the indexer's store. */
export function createMarketHandlers({ store }: CreateMarketHandlersParameters): CreateMarketHandlersReturnType {
  return {
    health: { getHealth: getHealthHandler({ store }) },
    services: {
      listServices: listServicesHandler({ store }),
      getService: getServiceHandler({ store }),
      getServiceEvents: getServiceEventsHandler({ store }),
    },
    jobs: { listJobs: listJobsHandler({ store }), getJob: getJobHandler({ store }) },
    sellers: { getSeller: getSellerHandler({ store }) },
    stats: { getStats: getStatsHandler({ store }) },
  }
}
