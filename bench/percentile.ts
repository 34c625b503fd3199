/** The nearest-rank percentile of ascending `sorted` values; NaN when there are none. */
export function percentile(sorted: readonly number[], percent: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.ceil((percent / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number
}

/** The middle of `values` (the upper middle for an even count), in any order. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}
