import { rewriteSpendEntries } from './rewriteSpendEntries.ts'

export type ReleaseSpendParameters = {
  path: string
  /** What reserveSpend returned. */
  id: string
}

/** Takes back a reserved payment that was never made (the node refused it, or it reverted). */
export async function releaseSpend({ path, id }: ReleaseSpendParameters): Promise<void> {
  await rewriteSpendEntries(path, (entries) => entries.filter((entry) => entry.id !== id))
}
