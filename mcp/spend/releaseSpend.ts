import { lockSpendLedger } from './lockSpendLedger.ts'
import { readSpendLedger, writeSpendLedger } from './spendLedgerFile.ts'

export type ReleaseSpendParameters = {
  path: string
  /** What reserveSpend returned. */
  id: string
}

/** Takes back a reserved payment that was never made (the node refused it, or it reverted). */
export async function releaseSpend({ path, id }: ReleaseSpendParameters): Promise<void> {
  await lockSpendLedger(path, async () => {
    const ledger = await readSpendLedger(path)
    await writeSpendLedger(path, { ...ledger, entries: ledger.entries.filter((entry) => entry.id !== id) })
  })
}
