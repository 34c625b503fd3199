import type { RouterImplementation } from '@ts-rest/fastify'
import type { MarketContract } from '../../../contract/router.ts'
import { listServices } from '../../readers/listServices.ts'
import type { Store } from '../../store/createStore.ts'

export type ListServicesHandler = RouterImplementation<MarketContract>['services']['listServices']

/** `GET /v1/services`. */
export function listServicesHandler({ store }: { store: Store }): ListServicesHandler {
  return async () => ({ status: 200, body: listServices(store) })
}
