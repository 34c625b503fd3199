/**
 * Transactions → what their events touched (a job's or a service's key), for lookups by hash.
 * Lean on purpose: one Map entry per transaction and record, keyed not by the 66-character hash
 * (~100 B a string) but by its first 28 bits, a small integer V8 keeps unboxed, with the one
 * key or, rarely, an array of them as its value. Hashes are uniformly random: with n transactions
 * held, a lookup meets another transaction's slot with a chance of about n / 2^28, and a key found
 * may so name a record that another transaction touched; the caller checks the record's events
 * for the full hash.
 */
export type TransactionIndex<key> = {
  /** Records that `key` was touched by the transaction; adding it twice keeps it once. */
  add(transactionHash: string, key: key): void
  /** Forgets `key` under the transaction's slot (see `sameSlot` before calling it). */
  remove(transactionHash: string, key: key): void
  /** Keys touched by this transaction, and perhaps by others sharing its slot. */
  get(transactionHash: string): readonly key[]
  clear(): void
  /** Slots held, for tests and measurements. */
  readonly size: number
}

/** Hex digits of the hash that make its slot: 7 × 4 = 28 bits, below V8's small-integer limit. */
const slotDigits = 7

function slotOf(transactionHash: string): number {
  return Number.parseInt(transactionHash.slice(2, 2 + slotDigits), 16)
}

/** Whether two hashes share a slot: a record keeps its key there while any of its events does. */
export function sameSlot(a: string, b: string): boolean {
  return a.slice(2, 2 + slotDigits) === b.slice(2, 2 + slotDigits)
}

const none: readonly never[] = []

export function createTransactionIndex<key extends number | bigint>(): TransactionIndex<key> {
  const slots = new Map<number, key | key[]>()
  return {
    add(transactionHash, key) {
      const slot = slotOf(transactionHash)
      const held = slots.get(slot)
      if (held === undefined) slots.set(slot, key)
      else if (Array.isArray(held)) {
        if (!held.includes(key)) held.push(key)
      } else if (held !== key) slots.set(slot, [held, key])
    },
    remove(transactionHash, key) {
      const slot = slotOf(transactionHash)
      const held = slots.get(slot)
      if (held === key) slots.delete(slot)
      else if (Array.isArray(held)) {
        const rest = held.filter((value) => value !== key)
        if (rest.length === 1) slots.set(slot, rest[0] as key)
        else slots.set(slot, rest)
      }
    },
    get(transactionHash) {
      const held = slots.get(slotOf(transactionHash))
      return held === undefined ? none : Array.isArray(held) ? held : [held]
    },
    clear() {
      slots.clear()
    },
    get size() {
      return slots.size
    },
  }
}
