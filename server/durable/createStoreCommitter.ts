import { setImmediate } from 'node:timers/promises'
import type { StoreSnapshots } from '../store/StoreWriter.ts'
import type { Database, Query } from './Database.ts'
import { jobToJson, serviceToJson, syncToJson } from './storedJson.ts'

/** The channel a commit is announced on, with its revision: replicas read what changed then. */
export const commitChannel = 'tee_market_commit'

export type StoreCommitter = {
  /**
   * Writes every record changed since the last commit and where indexing stands, in one
   * transaction: a crash leaves the last whole commit. Called by the indexer at each applied
   * window and poll, where the store is whole. A failed commit keeps its records for the next.
   */
  commit(): Promise<void>
  /** The revision of the last commit written. */
  readonly revision: bigint
  /** What the commits cost: for the bench and /metrics. */
  readonly stats: { commits: number; rows: number; totalMs: number }
}

export type CreateStoreCommitterParameters = {
  database: Database
  /** Created with `trackChanges`, and holding what the database holds (see openDurableStore). */
  store: StoreSnapshots
  /** The revision the database is at. */
  revision: bigint
  /** Extra facts kept with each commit (the node's learned limits), written as they are. */
  meta?: (() => Record<string, string>) | undefined
  /** Records written by one statement (default 100; see defaultRecordsPerStatement). */
  recordsPerStatement?: number | undefined
  now?: () => number
}

/**
 * Records encoded and written per statement, with a turn of the event loop between statements.
 * The records' JSON is built on the main thread: measured when PGlite still ran there too, a
 * window's 1,000 jobs in one statement held requests 50–85 ms of CPU, 200 a statement 12–20 ms,
 * 100 8–11 ms for the same total. PGlite now runs on its own thread and Postgres elsewhere, but
 * encoding a whole window at once would still hold requests, so it is built a statement at a time.
 */
const defaultRecordsPerStatement = 100

export function createStoreCommitter({
  database,
  store,
  revision: revisionAtStart,
  meta,
  recordsPerStatement = defaultRecordsPerStatement,
  now = Date.now,
}: CreateStoreCommitterParameters): StoreCommitter {
  let revision = revisionAtStart
  const pendingServices = new Set<bigint>()
  const pendingJobs = new Set<bigint>()
  const stats = { commits: 0, rows: 0, totalMs: 0 }

  /**
   * Upserts the records of `ids` in statements of `recordsPerStatement`, a macrotask apart so that
   * requests and timers run between them; each statement's records are one JSON parameter,
   * `[["<id>", <snapshot or null>], ...]`. Each record's snapshot is taken as its statement is
   * built: the store's only writer, the indexer, awaits the commit, so none changes meanwhile and
   * the commit is still the store at one instant.
   */
  const writeRecords = async (
    query: Query,
    { table, idColumn, ids, toJson, next }: { table: string; idColumn: string; ids: ReadonlySet<bigint>; toJson: (id: bigint) => string; next: bigint },
  ): Promise<void> => {
    let parts: string[] = []
    const flush = async (): Promise<void> => {
      await query(upsert(table, idColumn), [next.toString(), `[${parts.join(',')}]`])
      parts = []
      await setImmediate()
    }
    for (const id of ids) {
      parts.push(`["${id}",${toJson(id)}]`)
      if (parts.length === recordsPerStatement) await flush()
    }
    if (parts.length > 0) await flush()
  }

  return {
    get revision() {
      return revision
    },
    stats,
    async commit() {
      const changes = store.takeChanges()
      for (const serviceId of changes.serviceIds) pendingServices.add(serviceId)
      for (const jobId of changes.jobIds) pendingJobs.add(jobId)
      const rows = pendingServices.size + pendingJobs.size
      const sync = syncToJson(store.syncSnapshot())
      const next = revision + 1n
      const startedAt = now()
      const facts = { ...meta?.(), sync, revision: next.toString(), committedAt: String(startedAt) }
      await database.transaction(async (query) => {
        await writeRecords(query, {
          table: 'tee_market_services',
          idColumn: 'service_id',
          ids: pendingServices,
          next,
          toJson: (serviceId) => {
            const snapshot = store.serviceSnapshot(serviceId)
            return snapshot === undefined ? 'null' : serviceToJson(snapshot)
          },
        })
        await writeRecords(query, {
          table: 'tee_market_jobs',
          idColumn: 'job_id',
          ids: pendingJobs,
          next,
          toJson: (jobId) => {
            const snapshot = store.jobSnapshot(jobId)
            return snapshot === undefined ? 'null' : jobToJson(snapshot)
          },
        })
        await query(
          `INSERT INTO tee_market_meta (key, value) SELECT key, value FROM json_each_text($1::json)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
          [JSON.stringify(facts)],
        )
        await query(`SELECT pg_notify('${commitChannel}', $1)`, [next.toString()])
      })
      revision = next
      pendingServices.clear()
      pendingJobs.clear()
      stats.commits += 1
      stats.rows += rows
      stats.totalMs += now() - startedAt
    },
  }
}

function upsert(table: string, idColumn: string): string {
  return `INSERT INTO ${table} (${idColumn}, revision, snapshot)
    SELECT (row->>0)::numeric, $1::bigint, CASE WHEN json_typeof(row->1) = 'null' THEN NULL ELSE (row->1)::text END
    FROM json_array_elements($2::json) AS row
    ON CONFLICT (${idColumn}) DO UPDATE SET revision = excluded.revision, snapshot = excluded.snapshot`
}
