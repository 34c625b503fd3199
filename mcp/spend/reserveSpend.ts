import { randomUUID } from 'node:crypto'
import { SpendLimitError } from '../../errors/spend.ts'
import { lockSpendLedger } from './lockSpendLedger.ts'
import { measureSpend } from './measureSpend.ts'
import { readSpendLedger, type SpendEntry, writeSpendLedger } from './spendLedgerFile.ts'

export type ReserveSpendParameters = {
  /** `MARKET_SPEND_LEDGER`. */
  path: string
  /** `MARKET_SPEND_LIMIT_WEI`; null records the payment without limiting it. */
  limit: bigint | null
  /** Whether `limit` is the default (unset): the refusal says so. */
  limitIsDefault?: boolean
  price: bigint
  serviceId: bigint
  buyer: string
  /** The signed transaction about to be sent, and the prompt's commitment (see SpendEntry's `sending`). */
  sending?: SpendEntry['sending']
  now?: number
}

export type ReserveSpendReturnType = {
  /** The entry written, for releaseSpend when the payment fails. */
  id: string
}

/**
 * Records a payment in the ledger before it is sent, if it fits the limit, under the ledger's
 * lock: two servers checking and writing at once cannot both take the last of the room. A crash
 * after this counts a payment that may not have been made, never the reverse.
 */
export async function reserveSpend({ path, limit, limitIsDefault = false, price, serviceId, buyer, sending, now = Date.now() }: ReserveSpendParameters): Promise<ReserveSpendReturnType> {
  const id = randomUUID()
  await lockSpendLedger(path, async () => {
    const { spent, fits, freesAt, current } = measureSpend(await readSpendLedger(path), { now, price, limit })
    if (!fits && limit !== null) throw new SpendLimitError({ spent, limit, price, freesAt, isDefault: limitIsDefault })
    await writeSpendLedger(path, { version: 1, entries: [...current, { id, wei: price.toString(), at: now, serviceId: serviceId.toString(), buyer, ...(sending === undefined ? {} : { sending }) }] })
  })
  return { id }
}
