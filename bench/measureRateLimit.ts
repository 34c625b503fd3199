import type { LoadSettings } from './compareWithCeiling.ts'
import { median } from './percentile.ts'
import { readChildCpu } from './readChildCpu.ts'
import { runLoad, type RunLoadReturnType } from './runLoad.ts'
import type { RateLimitVariant, ServeRateLimitMessage } from './serveRateLimitVariant.ts'
import { spawnBenchChild } from './spawnBenchChild.ts'

export type RateLimitCost = {
  label: string
  /** 2xx answers per second. */
  requestsPerSec: number
  p50Ms: number
  p99Ms: number
  /** Server CPU per answer, 2xx and 429 alike. */
  cpuMicrosPerAnswer: number
  /** Extra server CPU per answer against the app without the limiter. */
  extraCpuMicrosPerAnswer: number
  /** Throughput change against the app without the limiter, in percent (2xx only). */
  throughputChangePercent: number
}

const variants: { label: string; variant: RateLimitVariant }[] = [
  { label: 'no limiter', variant: { rateLimit: null } },
  // Every request counted, none refused: what each served client pays.
  { label: 'limiter, under limit', variant: { rateLimit: { max: 1_000_000_000, windowMs: 60_000 } } },
  // Every request after the first refused: what a flood costs the server per request.
  { label: 'limiter, flood (429s)', variant: { rateLimit: { max: 1, windowMs: 3_600_000 } } },
]

/** Load rounds per variant, in alternating order: the median is kept, so a neighbour's burst on a shared machine shifts no variant alone. */
const rounds = 3

/**
 * What the per-client request limiter (addRateLimit, on by default in `npm run serve`) costs: the
 * same REST app and route (`GET /v1/services`) in three processes, without it, with it under its
 * limit and with every request refused, loaded in turn from one address.
 */
export async function measureRateLimit({ load }: { load: LoadSettings }): Promise<RateLimitCost[]> {
  const children = variants.map(({ label, variant }) =>
    spawnBenchChild<ServeRateLimitMessage>({ entry: 'bench/serveRateLimitVariant.ts', options: variant, name: `rate limit: ${label}` }),
  )
  try {
    const urls = await Promise.all(children.map(async (child) => (await child.next('listening')).url))
    const results: RunLoadReturnType[][] = variants.map(() => [])
    for (let round = 0; round < rounds; round++) {
      const order = variants.map((_variant, index) => index)
      if (round % 2 === 1) order.reverse()
      for (const index of order) {
        const child = children[index]!
        results[index]!.push(await runLoad({ url: `${urls[index]}/v1/services`, ...load, serverCpu: () => readChildCpu(child) }))
      }
    }
    const measured = variants.map(({ label }, index) => {
      const runs = results[index]!
      return {
        label,
        requestsPerSec: median(runs.map((run) => run.requestsPerSec)),
        p50Ms: median(runs.map((run) => run.p50Ms)),
        p99Ms: median(runs.map((run) => run.p99Ms)),
        cpuMicrosPerAnswer: median(runs.map((run) => run.cpuMicrosPerRequest)),
      }
    })
    const base = measured[0]!
    return measured.map((entry) => ({
      ...entry,
      extraCpuMicrosPerAnswer: Math.round((entry.cpuMicrosPerAnswer - base.cpuMicrosPerAnswer) * 10) / 10,
      throughputChangePercent: Math.round(((entry.requestsPerSec - base.requestsPerSec) / base.requestsPerSec) * 1000) / 10,
    }))
  } finally {
    await Promise.all(children.map((child) => child.stop()))
  }
}

/** The figures as a table for the terminal. */
export function printRateLimitTable(costs: readonly RateLimitCost[]): string {
  const rows = costs.map((cost) =>
    [
      cost.label.padEnd(22),
      `${Math.round(cost.requestsPerSec)}`.padStart(8),
      `${cost.throughputChangePercent > 0 ? '+' : ''}${cost.throughputChangePercent}%`.padStart(8),
      `${cost.p50Ms}`.padStart(6),
      `${cost.p99Ms}`.padStart(6),
      `${cost.cpuMicrosPerAnswer.toFixed(1)}`.padStart(9),
      `${cost.extraCpuMicrosPerAnswer > 0 ? '+' : ''}${cost.extraCpuMicrosPerAnswer}`.padStart(9),
    ].join('  '),
  )
  return [
    'Per-client request limiter cost (GET /v1/services, one client address)',
    `${'variant'.padEnd(22)}  ${'2xx/s'.padStart(8)}  ${'vs none'.padStart(8)}  ${'p50 ms'.padStart(6)}  ${'p99 ms'.padStart(6)}  ${'CPU µs/ans'.padStart(9)}  ${'extra µs'.padStart(9)}`,
    ...rows,
  ].join('\n')
}
