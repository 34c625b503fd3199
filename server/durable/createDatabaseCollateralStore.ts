import { z } from 'zod'
import { TeeCollateralSchema } from '../../contract/tee.ts'
import type { CollateralEntry, CollateralStore } from '../../tee/CollateralStore.ts'
import type { Database } from './Database.ts'

const StoredEntrySchema = z.object({ collateral: TeeCollateralSchema, expiresAt: z.string().datetime(), fetchedAt: z.string().datetime() })

/**
 * Intel's collateral kept in the index's database, so a restart (or another process on the same
 * Postgres) verifies quotes without asking the PCS again. Apart from the index's tables: the
 * collateral is the same for any market, so a rebuilt index keeps it. An entry that does not parse
 * is read as absent, and fetched again.
 */
export function createDatabaseCollateralStore(database: Database): CollateralStore {
  let created: Promise<unknown> | undefined
  // A failed creation (a lost session) is tried again at the next use, not remembered.
  const table = () =>
    (created ??= database.query(`CREATE TABLE IF NOT EXISTS tee_collateral (key text PRIMARY KEY, entry text NOT NULL)`).catch((error: unknown) => {
      created = undefined
      throw error
    }))
  return {
    async read(key) {
      await table()
      const [row] = await database.query<{ entry: string }>(`SELECT entry FROM tee_collateral WHERE key = $1`, [key])
      if (row === undefined) return undefined
      const parsed = StoredEntrySchema.safeParse(parseJson(row.entry))
      if (!parsed.success) return undefined
      const { collateral, expiresAt, fetchedAt } = parsed.data
      return { collateral, expiresAt: new Date(expiresAt), fetchedAt: new Date(fetchedAt) } satisfies CollateralEntry
    },
    async write(key, { collateral, expiresAt, fetchedAt }) {
      await table()
      const entry = JSON.stringify({ collateral, expiresAt: expiresAt.toISOString(), fetchedAt: fetchedAt.toISOString() })
      await database.query(`INSERT INTO tee_collateral (key, entry) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET entry = EXCLUDED.entry`, [key, entry])
    },
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
