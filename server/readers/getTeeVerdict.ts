import type { TeeVerdict } from '../../contract/tee.ts'
import { ServiceNotFoundError, TeeVerdictPendingError } from '../../errors/notFound.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { assertServing } from './assertServing.ts'

export type GetTeeVerdictParameters = { serviceId: bigint }
export type GetTeeVerdictReturnType = TeeVerdict

/** A service's TEE verdict; throws ServiceNotFoundError for an unknown id, TeeVerdictPendingError before its first check. */
export function getTeeVerdict(store: StoreReader, { serviceId }: GetTeeVerdictParameters): GetTeeVerdictReturnType {
  assertServing(store)
  if (store.service(serviceId) === undefined) throw new ServiceNotFoundError({ serviceId })
  const verdict = store.teeVerdict(serviceId)
  if (verdict === undefined) throw new TeeVerdictPendingError({ serviceId })
  return verdict
}
