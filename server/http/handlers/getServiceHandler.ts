import type { RouterImplementation } from '@ts-rest/fastify'
import type { MarketContract } from '../../../contract/router.ts'
import { getService } from '../../readers/getService.ts'
import type { Store } from '../../store/createStore.ts'

export type GetServiceHandler = RouterImplementation<MarketContract>['services']['getService']

/** `GET /v1/services/:id`; an unknown id throws ServiceNotFoundError, answered as 404. */
export function getServiceHandler({ store }: { store: Store }): GetServiceHandler {
  return async ({ params }) => ({ status: 200, body: getService(store, { serviceId: BigInt(params.id) }) })
}
