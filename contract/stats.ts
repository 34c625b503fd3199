import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'
import { HealthCountersSchema } from './health.ts'

const counters = HealthCountersSchema.shape

export const StatsSchema = extendApi(
  z.object({
    services: counters.services,
    jobs: z
      .object({
        total: counters.jobs,
        settled: counters.settledJobs,
        expired: counters.expiredJobs,
        slashed: counters.slashedJobs,
      })
      .describe('Job counts by outcome.'),
    totalSettledWei: counters.totalSettledWei,
  }),
  { title: 'Stats', description: 'Aggregate statistics, the same counters as /healthz.' },
)

export type Stats = z.output<typeof StatsSchema>
