import { rewriteSpendEntries } from './rewriteSpendEntries.ts'
import type { SpendEntry } from './spendLedgerFile.ts'

export type MarkSpendSentParameters = {
  path: string
  /** What reserveSpend returned. */
  id: string
}

/** The payment's outcome was read: it stays counted, and no later `run` sends its transaction again. */
export async function markSpendSent({ path, id }: MarkSpendSentParameters): Promise<void> {
  await rewriteSpendEntries(path, (entries) => entries.map((entry) => (entry.id === id ? withoutSending(entry) : entry)))
}

function withoutSending({ sending, ...entry }: SpendEntry): SpendEntry {
  return entry
}
