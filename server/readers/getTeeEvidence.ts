import type { TeeEvidence } from '../../contract/tee.ts'
import { ServiceNotFoundError, TeeEvidenceNotFoundError } from '../../errors/notFound.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { assertServing } from './assertServing.ts'

export type GetTeeEvidenceParameters = { serviceId: bigint }
export type GetTeeEvidenceReturnType = TeeEvidence

/** The evidence behind a service's verdict; throws ServiceNotFoundError or TeeEvidenceNotFoundError (no quote was fetched). */
export function getTeeEvidence(store: StoreReader, { serviceId }: GetTeeEvidenceParameters): GetTeeEvidenceReturnType {
  assertServing(store)
  if (store.service(serviceId) === undefined) throw new ServiceNotFoundError({ serviceId })
  const evidence = store.teeEvidence(serviceId)
  if (evidence === undefined) throw new TeeEvidenceNotFoundError({ serviceId, verdict: store.teeVerdict(serviceId)?.verdict })
  return evidence
}
