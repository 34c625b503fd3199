import { lockSpendLedger } from './lockSpendLedger.ts'
import { readSpendLedger, type SpendEntry, writeSpendLedger } from './spendLedgerFile.ts'

export type MarkSpendSentParameters = {
  path: string
  /** What reserveSpend returned. */
  id: string
}

/** The payment's outcome was read: it stays counted, and no later `run` sends its transaction again. */
export async function markSpendSent({ path, id }: MarkSpendSentParameters): Promise<void> {
  await lockSpendLedger(path, async () => {
    const ledger = await readSpendLedger(path)
    await writeSpendLedger(path, { ...ledger, entries: ledger.entries.map((entry) => (entry.id === id ? withoutSending(entry) : entry)) })
  })
}

function withoutSending({ sending, ...entry }: SpendEntry): SpendEntry {
  return entry
}
