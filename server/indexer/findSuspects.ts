import { setImmediate } from 'node:timers/promises'
import type { StoreReader } from '../store/StoreReader.ts'
import { checkJobHistory } from './checkJobHistory.ts'

export type FindSuspectsParameters = {
  /** Jobs read since the last check. */
  jobIds: Iterable<bigint>
}
export type FindSuspectsReturnType = bigint[]

/**
 * Jobs checked in one turn of the event loop: 10,000 checked at once after a back-fill took
 * 18 ms, so a million would hold requests for seconds; 2,000 take 4–7 ms.
 */
const jobsPerTurn = 2_000

/** The jobs among `jobIds` whose stored history does not fit their record (see checkJobHistory). */
export async function findSuspects(store: StoreReader, { jobIds }: FindSuspectsParameters): Promise<FindSuspectsReturnType> {
  const suspects: bigint[] = []
  let checked = 0
  for (const jobId of jobIds) {
    checked += 1
    if (checked % jobsPerTurn === 0) await setImmediate()
    const stored = store.job(jobId)
    if (stored !== undefined && checkJobHistory(stored.job, stored.events) !== 'consistent') suspects.push(jobId)
  }
  return suspects
}
