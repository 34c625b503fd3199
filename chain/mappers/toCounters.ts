import type { Health } from '../../contract/health.ts'

export type ToCountersParameters = {
  services: number
  jobs: number
  settledJobs: number
  expiredJobs: number
  slashedJobs: number
  totalSettledWei: bigint
}

/** The health record's counters: the wei total becomes a decimal string. */
export function toCounters({ totalSettledWei, ...counts }: ToCountersParameters): Health['counters'] {
  return { ...counts, totalSettledWei: totalSettledWei.toString() }
}
