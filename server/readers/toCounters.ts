import type { Health } from '../../contract/health.ts'
import type { StoreCounters } from '../store/StoreReader.ts'

/** The health record's counters: the wei total becomes a decimal string. */
export function toCounters({ totalSettledWei, ...counts }: StoreCounters): Health['counters'] {
  return { ...counts, totalSettledWei: totalSettledWei.toString() }
}
