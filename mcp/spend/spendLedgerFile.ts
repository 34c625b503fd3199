import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import { Bytes32Schema, HexSchema, UintStringSchema } from '../../contract/primitives.ts'
import { SpendLedgerError } from '../../errors/spend.ts'

const SpendEntrySchema = z.object({
  /** Names the entry, so a failed payment removes its own. */
  id: z.string().uuid(),
  /** Escrowed (or about to be): the service's pricePerCall, decimal wei. */
  wei: UintStringSchema,
  /** When it was written, unix milliseconds: before the payment was sent. */
  at: z.number().int().nonnegative(),
  serviceId: z.string(),
  buyer: z.string(),
  /**
   * The signed createJob, from before it is sent until its outcome is read: a later `run` for the
   * same service and prompt sends these bytes again (one hash, mined once at most) rather than
   * paying twice. Left when the receipt never came, or the process died waiting for it.
   */
  sending: z.object({ inputCommitment: Bytes32Schema, transaction: HexSchema }).optional(),
})

/** The file `MARKET_SPEND_LEDGER` names: what `run` escrowed in the last 24 hours, across restarts and processes. */
export const SpendLedgerSchema = z.object({ version: z.literal(1), entries: z.array(SpendEntrySchema) })

export type SpendLedger = z.infer<typeof SpendLedgerSchema>
export type SpendEntry = SpendLedger['entries'][number]

/** The ledger, empty when the file does not exist yet. A file that does not parse is refused, not reset. */
export async function readSpendLedger(path: string): Promise<SpendLedger> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, entries: [] }
    throw new SpendLedgerError({ path, problem: 'cannot be read (fix its permissions, or point MARKET_SPEND_LEDGER at a file this server can read and write)', cause: error })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new SpendLedgerError({ path, problem: 'is not JSON (fix it, or remove it to start counting afresh)', cause: error })
  }
  const parsed = SpendLedgerSchema.safeParse(json)
  if (!parsed.success) {
    throw new SpendLedgerError({ path, problem: 'is not a spend ledger (fix it, or remove it to start counting afresh)', cause: parsed.error })
  }
  return parsed.data
}

/** Replaces the file whole (a temporary file renamed over it), so a reader never sees half a ledger. */
export async function writeSpendLedger(path: string, ledger: SpendLedger): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 })
    await writeFile(temporary, `${JSON.stringify(ledger, null, 2)}\n`, { mode: 0o600 })
    await rename(temporary, path)
  } catch (error) {
    throw new SpendLedgerError({ path, problem: 'cannot be written (fix its folder\'s permissions, or point MARKET_SPEND_LEDGER at a file this server can write)', cause: error })
  }
}
