import type { MarketContract } from '../../../contract/router.ts'
import { getService } from '../../readers/getService.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetServiceHandler = ContractHandler<MarketContract['services']['getService']>

/** `GET /v1/services/:id`; an unknown id throws ServiceNotFoundError, answered as 404. */
export function getServiceHandler({ store }: { store: StoreReader }): GetServiceHandler {
  return {
    version: ({ params }) => (store.service(BigInt(params.id)) === undefined ? undefined : store.version),
    answer: ({ params }) => ({ status: 200, body: getService(store, { serviceId: BigInt(params.id) }) }),
  }
}
