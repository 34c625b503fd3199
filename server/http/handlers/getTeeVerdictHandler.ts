import type { MarketContract } from '../../../contract/router.ts'
import { getTeeVerdict } from '../../readers/getTeeVerdict.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetTeeVerdictHandler = ContractHandler<MarketContract['services']['getTeeVerdict']>

/** `GET /v1/services/:id/tee`; an unknown id or a service not checked yet is a 404. */
export function getTeeVerdictHandler({ store }: { store: StoreReader }): GetTeeVerdictHandler {
  return {
    version: ({ params }) => (store.teeVerdict(BigInt(params.id)) === undefined ? undefined : store.version),
    answer: ({ params }) => ({ status: 200, body: getTeeVerdict(store, { serviceId: BigInt(params.id) }) }),
  }
}
