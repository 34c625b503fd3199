import type { Address } from 'viem'
import { StoredMarketMismatchError } from '../../errors/durable.ts'
import type { Database } from './Database.ts'

/**
 * The layout the tables and their records have (2: jobs kept by position, see storedJson.ts). A
 * store written by another layout is not read: the writer drops it and indexes again from the
 * chain (one log line says so), which the chain makes always possible.
 */
export const schemaVersion = 2

/** Whose index a store holds (the configuration's fields of these names): a store of another chain or other contracts is refused, never mixed. */
export type StoredMarket = { chainId: number; registry: Address; escrow: Address; arbiter: Address }

export type PrepareSchemaParameters = {
  market: StoredMarket
  /** A replica only reads: it waits for the writer to lay the tables out rather than touching them. */
  readOnly: boolean
  /** Told once when the tables are rebuilt, or when a replica waits for its writer. */
  onNotice?: ((notice: { message: string; storedVersion?: number }) => void) | undefined
  /** Between two looks of a waiting replica (default 1,000 ms). */
  waitIntervalMs?: number
}

const tables = ['tee_market_jobs', 'tee_market_services', 'tee_market_meta'] as const

/**
 * Lays the tables out (a writer, on first use or after a layout change), or waits until the writer
 * has (a replica); then checks they hold this market's index.
 */
export async function prepareSchema(database: Database, { market, readOnly, onNotice, waitIntervalMs = 1_000 }: PrepareSchemaParameters): Promise<void> {
  let noticed = false
  for (;;) {
    const stored = await readStoredVersion(database)
    if (stored === schemaVersion) break
    if (readOnly) {
      if (!noticed) onNotice?.({ message: `waiting for the writer to lay out the index (schema ${schemaVersion}) in ${database.where}`, storedVersion: stored })
      noticed = true
      await new Promise((resolve) => setTimeout(resolve, waitIntervalMs))
      continue
    }
    if (stored !== undefined) onNotice?.({ message: `the index in ${database.where} has schema ${stored}, this version writes ${schemaVersion}: rebuilding it from the chain`, storedVersion: stored })
    await layOut(database, market)
  }
  const [row] = await database.query<{ value: string }>(`SELECT value FROM tee_market_meta WHERE key = 'market'`)
  const held = JSON.parse(row?.value ?? 'null') as StoredMarket | null
  if (held === null || !sameMarket(held, market))
    throw new StoredMarketMismatchError({ where: database.where, stored: held === null ? 'no market' : describe(held), configured: describe(market) })
}

async function readStoredVersion(database: Database): Promise<number | undefined> {
  const [table] = await database.query<{ found: string | null }>(`SELECT to_regclass('tee_market_meta')::text AS found`)
  if (table?.found == null) return undefined
  const [row] = await database.query<{ value: string }>(`SELECT value FROM tee_market_meta WHERE key = 'schema'`)
  return row === undefined ? undefined : (JSON.parse(row.value) as number)
}

async function layOut(database: Database, market: StoredMarket): Promise<void> {
  await database.transaction(async (query) => {
    for (const table of tables) await query(`DROP TABLE IF EXISTS ${table}`)
    await query(`CREATE TABLE tee_market_meta (key text PRIMARY KEY, value text NOT NULL)`)
    // A row's revision is the commit that last wrote it; a record gone (rolled back) keeps its row
    // with no snapshot, so replicas reading "what changed since revision N" see it go.
    await query(`CREATE TABLE tee_market_services (service_id numeric PRIMARY KEY, revision bigint NOT NULL, snapshot text)`)
    await query(`CREATE TABLE tee_market_jobs (job_id numeric PRIMARY KEY, revision bigint NOT NULL, snapshot text)`)
    await query(`CREATE INDEX tee_market_services_revision ON tee_market_services (revision)`)
    await query(`CREATE INDEX tee_market_jobs_revision ON tee_market_jobs (revision)`)
    await query(`INSERT INTO tee_market_meta (key, value) VALUES ('market', $1), ('revision', '0'), ('schema', $2)`, [
      JSON.stringify({
        chainId: market.chainId,
        registry: market.registry.toLowerCase(),
        escrow: market.escrow.toLowerCase(),
        arbiter: market.arbiter.toLowerCase(),
      }),
      String(schemaVersion),
    ])
  })
}

function sameMarket(a: StoredMarket, b: StoredMarket): boolean {
  return (
    a.chainId === b.chainId &&
    a.registry.toLowerCase() === b.registry.toLowerCase() &&
    a.escrow.toLowerCase() === b.escrow.toLowerCase() &&
    a.arbiter.toLowerCase() === b.arbiter.toLowerCase()
  )
}

function describe({ chainId, registry, escrow, arbiter }: StoredMarket): string {
  return `chain ${chainId} (registry ${registry}, escrow ${escrow}, arbiter ${arbiter})`
}
