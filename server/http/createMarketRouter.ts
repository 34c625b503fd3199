import { initServer, type RouterImplementation } from '@ts-rest/fastify'
import { marketContract, type MarketContract } from '../../contract/router.ts'
import type { Store } from '../store/createStore.ts'
import { getHealthHandler } from './handlers/getHealthHandler.ts'
import { getJobHandler } from './handlers/getJobHandler.ts'
import { getSellerHandler } from './handlers/getSellerHandler.ts'
import { getServiceHandler } from './handlers/getServiceHandler.ts'
import { getStatsHandler } from './handlers/getStatsHandler.ts'
import { listJobsHandler } from './handlers/listJobsHandler.ts'
import { listServicesHandler } from './handlers/listServicesHandler.ts'

export type CreateMarketRouterParameters = { store: Store }
export type CreateMarketRouterReturnType = RouterImplementation<MarketContract>

/** The ts-rest router: one handler per contract route, each reading the indexer's store. */
export function createMarketRouter({ store }: CreateMarketRouterParameters): CreateMarketRouterReturnType {
  return initServer().router(marketContract, {
    health: { getHealth: getHealthHandler({ store }) },
    services: { listServices: listServicesHandler({ store }), getService: getServiceHandler({ store }) },
    jobs: { listJobs: listJobsHandler({ store }), getJob: getJobHandler({ store }) },
    sellers: { getSeller: getSellerHandler({ store }) },
    stats: { getStats: getStatsHandler({ store }) },
  })
}
