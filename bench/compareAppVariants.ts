import type { LoadSettings } from './compareWithCeiling.ts'
import { median } from './percentile.ts'
import { readChildCpu } from './readChildCpu.ts'
import { runLoad, type RunLoadReturnType } from './runLoad.ts'
import type { AppVariant, ServeAppVariantMessage } from './serveAppVariant.ts'
import { spawnBenchChild } from './spawnBenchChild.ts'
import { formatCostCells } from './formatCostCells.ts'

export type LabelledAppVariant = AppVariant & { label: string }

export type AppVariantCost = LabelledAppVariant & {
  /** 2xx answers per second. */
  requestsPerSec: number
  p50Ms: number
  p99Ms: number
  /** Server CPU per answer, whatever its status. */
  cpuMicrosPerRequest: number
  /** Extra server CPU per answer against the first variant. */
  extraCpuMicrosPerRequest: number
  /** Throughput change against the first variant, in percent. */
  throughputChangePercent: number
}

/** Load rounds per variant, in alternating order: the median is kept, so a neighbour's burst on a shared machine shifts no variant alone. */
const rounds = 3

/**
 * The same REST app and route (`GET /v1/services`) in one process per variant, loaded in turn,
 * each figure against the first variant's.
 */
export async function compareAppVariants({ variants, load, stage }: { variants: readonly LabelledAppVariant[]; load: LoadSettings; stage: string }): Promise<AppVariantCost[]> {
  const children = variants.map(({ label, ...variant }) =>
    spawnBenchChild<ServeAppVariantMessage>({ entry: 'bench/serveAppVariant.ts', options: variant, name: `${stage}: ${label}` }),
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

/** The figures as a table for the terminal, under `title`. */
export function printAppVariantTable(title: string, costs: readonly AppVariantCost[]): string {
  const rows = costs.map((cost) =>
    [
      cost.label.padEnd(22),
      ...formatCostCells(cost),
    ].join('  '),
  )
  return [
    title,
    `${'variant'.padEnd(22)}  ${'2xx/s'.padStart(8)}  ${'vs first'.padStart(8)}  ${'p50 ms'.padStart(6)}  ${'p99 ms'.padStart(6)}  ${'CPU µs/ans'.padStart(9)}  ${'extra µs'.padStart(9)}`,
    ...rows,
  ].join('\n')
}
