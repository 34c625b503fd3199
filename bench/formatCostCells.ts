/** What an A/B stage measures of a variant, each against the stage's first (or plain) variant. */
export type VariantFigures = {
  requestsPerSec: number
  throughputChangePercent: number
  p50Ms: number
  p99Ms: number
  cpuMicrosPerRequest: number
  extraCpuMicrosPerRequest: number
}

/** A variant's figures as padded table cells: throughput, its change, p50, p99, CPU per answer, extra CPU. */
export function formatCostCells(cost: VariantFigures): string[] {
  return [
    `${Math.round(cost.requestsPerSec)}`.padStart(8),
    `${cost.throughputChangePercent > 0 ? '+' : ''}${cost.throughputChangePercent}%`.padStart(8),
    `${cost.p50Ms}`.padStart(6),
    `${cost.p99Ms}`.padStart(6),
    `${cost.cpuMicrosPerRequest.toFixed(1)}`.padStart(9),
    `${cost.extraCpuMicrosPerRequest > 0 ? '+' : ''}${cost.extraCpuMicrosPerRequest}`.padStart(9),
  ]
}
