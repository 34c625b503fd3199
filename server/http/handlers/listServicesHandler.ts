import type { MarketContract } from '../../../contract/router.ts'
import { listServices } from '../../readers/listServices.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type ListServicesHandler = ContractHandler<MarketContract['services']['listServices']>

/** `GET /v1/services`. */
export function listServicesHandler({ store }: { store: StoreReader }): ListServicesHandler {
  return {
    version: () => store.version,
    answer: () => ({ status: 200, body: listServices(store) }),
  }
}
