import type { Health } from '../../contract/health.ts'

/** The health record's counters as the store keeps them: the wei total still a bigint. */
export type ToCountersParameters = Omit<Health['counters'], 'totalSettledWei'> & { totalSettledWei: bigint }

/** The health record's counters: the wei total becomes a decimal string. */
export function toCounters({ totalSettledWei, ...counts }: ToCountersParameters): Health['counters'] {
  return { ...counts, totalSettledWei: totalSettledWei.toString() }
}
