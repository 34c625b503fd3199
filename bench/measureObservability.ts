import type { LoadSettings } from './compareWithCeiling.ts'
import { readChildCpu } from './readChildCpu.ts'
import { runLoad, type RunLoadReturnType } from './runLoad.ts'
import type { ObservabilityVariant, ServeObservabilityMessage } from './serveObservabilityVariant.ts'
import { spawnBenchChild } from './spawnBenchChild.ts'
import { median } from './percentile.ts'

export type ObservabilityCost = ObservabilityVariant & {
  label: string
  requestsPerSec: number
  p50Ms: number
  p99Ms: number
  cpuMicrosPerRequest: number
  /** Extra server CPU per request against the variant with neither. */
  extraCpuMicrosPerRequest: number
  /** Throughput change against the variant with neither, in percent. */
  throughputChangePercent: number
}

const variants: (ObservabilityVariant & { label: string })[] = [
  { label: 'neither', metrics: false, accessLog: false },
  { label: 'metrics (default)', metrics: true, accessLog: false },
  { label: 'access log', metrics: false, accessLog: true },
  { label: 'metrics + access log', metrics: true, accessLog: true },
]

/** Load rounds per variant, in alternating order: the median is kept, so a neighbour's burst on a shared machine shifts no variant alone. */
const rounds = 3

/**
 * What request metrics (the onResponse histogram) and info access logs cost: the same REST app
 * and route (`GET /v1/services`) in four processes, one variant each, loaded in turn.
 */
export async function measureObservability({ load }: { load: LoadSettings }): Promise<ObservabilityCost[]> {
  const children = variants.map((variant) =>
    spawnBenchChild<ServeObservabilityMessage>({
      entry: 'bench/serveObservabilityVariant.ts',
      options: { metrics: variant.metrics, accessLog: variant.accessLog },
      name: `observability: ${variant.label}`,
    }),
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
    const measured = variants.map((variant, index) => {
      const runs = results[index]!
      return {
        ...variant,
        requestsPerSec: median(runs.map((run) => run.requestsPerSec)),
        p50Ms: median(runs.map((run) => run.p50Ms)),
        p99Ms: median(runs.map((run) => run.p99Ms)),
        cpuMicrosPerRequest: median(runs.map((run) => run.cpuMicrosPerRequest)),
      }
    })
    const base = measured[0]!
    return measured.map((entry) => ({
      ...entry,
      extraCpuMicrosPerRequest: Math.round((entry.cpuMicrosPerRequest - base.cpuMicrosPerRequest) * 10) / 10,
      throughputChangePercent: Math.round(((entry.requestsPerSec - base.requestsPerSec) / base.requestsPerSec) * 1000) / 10,
    }))
  } finally {
    await Promise.all(children.map((child) => child.stop()))
  }
}

/** The figures as a table for the terminal. */
export function printObservabilityTable(costs: readonly ObservabilityCost[]): string {
  const rows = costs.map((cost) =>
    [
      cost.label.padEnd(22),
      `${Math.round(cost.requestsPerSec)}`.padStart(8),
      `${cost.throughputChangePercent > 0 ? '+' : ''}${cost.throughputChangePercent}%`.padStart(8),
      `${cost.p50Ms}`.padStart(6),
      `${cost.p99Ms}`.padStart(6),
      `${cost.cpuMicrosPerRequest.toFixed(1)}`.padStart(9),
      `${cost.extraCpuMicrosPerRequest > 0 ? '+' : ''}${cost.extraCpuMicrosPerRequest}`.padStart(9),
    ].join('  '),
  )
  return [
    'Observability cost (GET /v1/services)',
    `${'variant'.padEnd(22)}  ${'req/s'.padStart(8)}  ${'vs none'.padStart(8)}  ${'p50 ms'.padStart(6)}  ${'p99 ms'.padStart(6)}  ${'CPU µs/req'.padStart(9)}  ${'extra µs'.padStart(9)}`,
    ...rows,
  ].join('\n')
}
