import type { LoadSettings } from './compareWithCeiling.ts'
import { readChildCpu } from './readChildCpu.ts'
import { runLoad } from './runLoad.ts'
import type { ObservabilityVariant, ServeObservabilityMessage } from './serveObservabilityVariant.ts'
import { spawnBenchChild } from './spawnBenchChild.ts'

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

/**
 * What request metrics (the onResponse histogram) and info access logs cost: the same REST app
 * and route (`GET /v1/services`) in four processes, one variant each, loaded one after another.
 */
export async function measureObservability({ load }: { load: LoadSettings }): Promise<ObservabilityCost[]> {
  const measured = []
  for (const variant of variants) {
    const child = spawnBenchChild<ServeObservabilityMessage>({
      entry: 'bench/serveObservabilityVariant.ts',
      options: { metrics: variant.metrics, accessLog: variant.accessLog },
      name: `observability: ${variant.label}`,
    })
    try {
      const { url } = await child.next('listening')
      const result = await runLoad({ url: `${url}/v1/services`, ...load, serverCpu: () => readChildCpu(child) })
      measured.push({ ...variant, requestsPerSec: result.requestsPerSec, p50Ms: result.p50Ms, p99Ms: result.p99Ms, cpuMicrosPerRequest: result.cpuMicrosPerRequest })
    } finally {
      await child.stop()
    }
  }
  const base = measured[0]!
  return measured.map((entry) => ({
    ...entry,
    extraCpuMicrosPerRequest: Math.round((entry.cpuMicrosPerRequest - base.cpuMicrosPerRequest) * 10) / 10,
    throughputChangePercent: Math.round(((entry.requestsPerSec - base.requestsPerSec) / base.requestsPerSec) * 1000) / 10,
  }))
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
