import { lockSpendLedger } from './lockSpendLedger.ts'
import { readSpendLedger, type SpendEntry, writeSpendLedger } from './spendLedgerFile.ts'

/** Rewrites the ledger's entries under its lock: how a payment's outcome is recorded. */
export async function rewriteSpendEntries(path: string, change: (entries: SpendEntry[]) => SpendEntry[]): Promise<void> {
  await lockSpendLedger(path, async () => {
    const ledger = await readSpendLedger(path)
    await writeSpendLedger(path, { ...ledger, entries: change(ledger.entries) })
  })
}
