import type { MarketContract } from '../../../contract/router.ts'
import { getServiceEvents } from '../../readers/getServiceEvents.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetServiceEventsHandler = ContractHandler<MarketContract['services']['getServiceEvents']>

/** `GET /v1/services/:id/events`; an unknown id throws ServiceNotFoundError, answered as 404. */
export function getServiceEventsHandler({ store }: { store: StoreReader }): GetServiceEventsHandler {
  return {
    version: ({ params }) => (store.service(BigInt(params.id)) === undefined ? undefined : store.version),
    answer: ({ params }) => ({ status: 200, body: getServiceEvents(store, { serviceId: BigInt(params.id) }) }),
  }
}
