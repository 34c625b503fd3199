import type { LoadSettings } from './compareWithCeiling.ts'
import { compareAppVariants, printAppVariantTable, type AppVariantCost, type LabelledAppVariant } from './compareAppVariants.ts'

export type ObservabilityCost = AppVariantCost

const variants: LabelledAppVariant[] = [
  { label: 'neither', metrics: false, accessLog: false, rateLimit: null },
  { label: 'metrics (default)', metrics: true, accessLog: false, rateLimit: null },
  { label: 'access log', metrics: false, accessLog: true, rateLimit: null },
  { label: 'metrics + access log', metrics: true, accessLog: true, rateLimit: null },
]

/**
 * What request metrics (the onResponse histogram) and info access logs cost: the same REST app
 * and route in four processes, one variant each, loaded in turn (see compareAppVariants).
 */
export function measureObservability({ load }: { load: LoadSettings }): Promise<ObservabilityCost[]> {
  return compareAppVariants({ variants, load, stage: 'observability' })
}

export function printObservabilityTable(costs: readonly ObservabilityCost[]): string {
  return printAppVariantTable('Observability cost (GET /v1/services)', costs)
}
