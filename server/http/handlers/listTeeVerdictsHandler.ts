import type { MarketContract } from '../../../contract/router.ts'
import { listTeeVerdicts } from '../../readers/listTeeVerdicts.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type ListTeeVerdictsHandler = ContractHandler<MarketContract['services']['listTeeVerdicts']>

/** `GET /v1/services/tee`. */
export function listTeeVerdictsHandler({ store }: { store: StoreReader }): ListTeeVerdictsHandler {
  return {
    version: () => store.version,
    answer: () => ({ status: 200, body: listTeeVerdicts(store) }),
  }
}
