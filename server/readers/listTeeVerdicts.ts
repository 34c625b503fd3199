import type { TeeVerdictList } from '../../contract/tee.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { assertServing } from './assertServing.ts'

export type ListTeeVerdictsReturnType = TeeVerdictList

/** Every service's TEE verdict checked so far, ascending by serviceId. */
export function listTeeVerdicts(store: StoreReader): ListTeeVerdictsReturnType {
  assertServing(store)
  const verdicts = store.teeVerdictList()
  return { count: verdicts.length, verdicts: verdicts as TeeVerdictList['verdicts'] }
}
