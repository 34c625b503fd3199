/** The nearest-rank percentile of ascending `sorted` values; NaN when there are none. */
export function percentile(sorted: readonly number[], percent: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.ceil((percent / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number
}
