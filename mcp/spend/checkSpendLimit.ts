import { SpendLimitError } from '../../errors/spend.ts'
import { measureSpend } from './measureSpend.ts'
import { readSpendLedger } from './spendLedgerFile.ts'

export type CheckSpendLimitParameters = {
  path: string
  limit: bigint | null
  /** Whether `limit` is the default (unset): the refusal says so. */
  limitIsDefault?: boolean
  price: bigint
  now?: number
}

export type CheckSpendLimitReturnType = {
  /** Wei recorded in the last 24 hours. */
  spent: bigint
}

/**
 * Refuses early, without the lock, a payment the ledger already has no room for, so the person is
 * not asked to confirm one that cannot go through. reserveSpend checks again under the lock.
 */
export async function checkSpendLimit({ path, limit, limitIsDefault = false, price, now = Date.now() }: CheckSpendLimitParameters): Promise<CheckSpendLimitReturnType> {
  const { spent, fits, freesAt } = measureSpend(await readSpendLedger(path), { now, price, limit })
  if (!fits && limit !== null) throw new SpendLimitError({ spent, limit, price, freesAt, isDefault: limitIsDefault })
  return { spent }
}
