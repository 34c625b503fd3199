import type { LoadSettings } from './compareWithCeiling.ts'
import { compareAppVariants, printAppVariantTable, type AppVariantCost, type LabelledAppVariant } from './compareAppVariants.ts'

export type RateLimitCost = AppVariantCost

const variants: LabelledAppVariant[] = [
  { label: 'no limiter', metrics: false, accessLog: false, rateLimit: null },
  // Every request counted, none refused: what each served client pays.
  { label: 'limiter, under limit', metrics: false, accessLog: false, rateLimit: { max: 1_000_000_000, windowMs: 60_000 } },
  // Every request after the first refused: what a flood costs the server per request.
  { label: 'limiter, flood (429s)', metrics: false, accessLog: false, rateLimit: { max: 1, windowMs: 3_600_000 } },
]

/**
 * What the per-client request limiter (addRateLimit, on by default in `npm run serve`) costs: the
 * same REST app and route in three processes, without it, with it under its limit and with every
 * request refused, loaded in turn from one address (see compareAppVariants).
 */
export function measureRateLimit({ load }: { load: LoadSettings }): Promise<RateLimitCost[]> {
  return compareAppVariants({ variants, load, stage: 'rate limit' })
}

export function printRateLimitTable(costs: readonly RateLimitCost[]): string {
  return printAppVariantTable('Per-client request limiter cost (GET /v1/services, one client address)', costs)
}
