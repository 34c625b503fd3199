import type { TeeEvidence, TeeVerdict } from '../../contract/tee.ts'
import { compareUintText } from '../../contract/compareUintText.ts'
import type { StoreReader } from './StoreReader.ts'
import type { TeeVerdictWriter } from './StoreWriter.ts'

/** The verdicts part of the store: kept apart from the chain's records, since no block makes or reverts one. */
export type TeeVerdicts = Pick<StoreReader, 'teeVerdict' | 'teeEvidence' | 'teeVerdictList'> & TeeVerdictWriter & { clear(): void }

export type CreateTeeVerdictsParameters = {
  /** Bumps the store's version: a new verdict changes what readers answer. */
  changed: () => number
}

type Entry = { verdict: TeeVerdict; evidence: TeeEvidence | undefined }

/** The latest verdict of each service, and the evidence behind it, as the TEE checker last wrote them. */
export function createTeeVerdicts({ changed }: CreateTeeVerdictsParameters): TeeVerdicts {
  const entries = new Map<bigint, Entry>()
  let listCache: TeeVerdict[] | undefined
  return {
    teeVerdict: (serviceId) => entries.get(serviceId)?.verdict,
    teeEvidence: (serviceId) => entries.get(serviceId)?.evidence,
    teeVerdictList() {
      listCache ??= [...entries.values()].map(({ verdict }) => verdict).sort((a, b) => compareUintText(a.serviceId, b.serviceId))
      return listCache
    },
    putTeeVerdict({ serviceId, verdict, evidence }) {
      entries.set(serviceId, { verdict, evidence })
      listCache = undefined
      changed()
    },
    clear() {
      entries.clear()
      listCache = undefined
    },
  }
}
