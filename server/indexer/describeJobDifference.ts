import { isDeepStrictEqual } from 'node:util'
import type { Job } from '../../contract/job.ts'
import type { StoredJob } from '../store/StoreReader.ts'
import { checkJobHistory } from './checkJobHistory.ts'
import { historyText } from './historyText.ts'

/** Why the stored job certainly differs from the chain's (undefined: it may not). */
export function describeJobDifference(stored: StoredJob | undefined, chain: Job): string | undefined {
  if (stored === undefined) return 'missing from the store'
  if (!isDeepStrictEqual(stored.job, chain)) {
    return `its record differs (store: ${stored.job.stateName}, chain: ${chain.stateName})`
  }
  if (checkJobHistory(chain, stored.events) === 'inconsistent') {
    return `its history (${historyText(stored.events)}) cannot lead to ${chain.stateName}`
  }
  return undefined
}
