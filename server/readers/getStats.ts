import { toCounters } from './toCounters.ts'
import type { Stats } from '../../contract/stats.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { assertServing } from './assertServing.ts'

export type GetStatsReturnType = Stats

/** Aggregate counters, derived from events (the same numbers as the health record's). */
export function getStats(store: StoreReader): GetStatsReturnType {
  assertServing(store)
  const counters = toCounters(store.counters)
  return {
    services: counters.services,
    jobs: {
      total: counters.jobs,
      settled: counters.settledJobs,
      expired: counters.expiredJobs,
      slashed: counters.slashedJobs,
    },
    totalSettledWei: counters.totalSettledWei,
  }
}
