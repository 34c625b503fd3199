import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { BaseError } from '../../errors/BaseError.ts'
import { SpendLedgerError } from '../../errors/spend.ts'
import { withLockFile } from './withLockFile.ts'

/**
 * Runs a read-change-write of the ledger under its lock file (`<ledger>.lock`). Our own refusals
 * pass through; anything else becomes a SpendLedgerError, so `run` refuses rather than pay uncounted.
 */
export async function lockSpendLedger(path: string, work: () => Promise<void>): Promise<void> {
  try {
    // The lock file sits beside the ledger, whose folder the first payment creates.
    await mkdir(dirname(path), { recursive: true, mode: 0o700 })
    await withLockFile({ path: `${path}.lock` }, work)
  } catch (error) {
    if (error instanceof BaseError && error.code !== 'lock_file_held') throw error
    throw new SpendLedgerError({ path, problem:
        error instanceof BaseError
          ? `cannot be locked: ${error.message}`
          : 'cannot be locked (its folder cannot be created or written: point MARKET_SPEND_LEDGER at a file this server can write)', cause: error })
  }
}
