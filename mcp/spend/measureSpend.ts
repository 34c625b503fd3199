import type { SpendLedger } from './spendLedgerFile.ts'

/** The period `MARKET_SPEND_LIMIT_WEI` (or its default) counts over, rolling. */
export const spendWindowMs = 24 * 60 * 60 * 1_000

export type MeasureSpendParameters = {
  now: number
  /** What the next payment would add. */
  price: bigint
  /** Null for no limit: only `spent` is of use then. */
  limit: bigint | null
}

export type MeasureSpendReturnType = {
  /** Wei recorded in the window ending now. */
  spent: bigint
  /** Whether `price` more stays within the limit. */
  fits: boolean
  /** When enough of the window's entries will have aged out for `price` to fit; null when it fits now or never can. */
  freesAt: Date | null
  /** The entries still in the window, oldest first: what a rewrite keeps. */
  current: SpendLedger['entries']
}

export function measureSpend(ledger: SpendLedger, { now, price, limit }: MeasureSpendParameters): MeasureSpendReturnType {
  const current = ledger.entries.filter((entry) => entry.at > now - spendWindowMs).toSorted((a, b) => a.at - b.at)
  const spent = current.reduce((total, entry) => total + BigInt(entry.wei), 0n)
  if (limit === null || spent + price <= limit) return { spent, fits: true, freesAt: null, current }
  if (price > limit) return { spent, fits: false, freesAt: null, current }
  let remaining = spent
  for (const entry of current) {
    remaining -= BigInt(entry.wei)
    if (remaining + price <= limit) return { spent, fits: false, freesAt: new Date(entry.at + spendWindowMs), current }
  }
  return { spent, fits: false, freesAt: null, current }
}
