import type { MarketContract } from '../../../contract/router.ts'
import { getTeeEvidence } from '../../readers/getTeeEvidence.ts'
import type { StoreReader } from '../../store/StoreReader.ts'
import type { ContractHandler } from '../ContractHandler.ts'

export type GetTeeEvidenceHandler = ContractHandler<MarketContract['services']['getTeeEvidence']>

/** `GET /v1/services/:id/tee/evidence`; an unknown id or a check that fetched no quote is a 404. */
export function getTeeEvidenceHandler({ store }: { store: StoreReader }): GetTeeEvidenceHandler {
  return {
    version: ({ params }) => (store.teeEvidence(BigInt(params.id)) === undefined ? undefined : store.version),
    answer: ({ params }) => ({ status: 200, body: getTeeEvidence(store, { serviceId: BigInt(params.id) }) }),
  }
}
