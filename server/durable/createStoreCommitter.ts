import type { Store } from '../store/createStore.ts'
import type { Database } from './Database.ts'
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
  /** Created with `trackChanges`, and holding what the database holds (see loadStore). */
  store: Store
  /** The revision the database is at. */
  revision: bigint
  /** Extra facts kept with each commit (the node's learned limits), written as they are. */
  meta?: (() => Record<string, string>) | undefined
  now?: () => number
}

export function createStoreCommitter({ database, store, revision: revisionAtStart, meta, now = Date.now }: CreateStoreCommitterParameters): StoreCommitter {
  let revision = revisionAtStart
  const pendingServices = new Set<bigint>()
  const pendingJobs = new Set<bigint>()
  const stats = { commits: 0, rows: 0, totalMs: 0 }
  return {
    get revision() {
      return revision
    },
    stats,
    async commit() {
      const changes = store.takeChanges()
      for (const serviceId of changes.serviceIds) pendingServices.add(serviceId)
      for (const jobId of changes.jobIds) pendingJobs.add(jobId)
      // Snapshots are taken now, synchronously, so the commit is the store at one instant.
      const services = toJsonArray(pendingServices, (serviceId) => {
        const snapshot = store.serviceSnapshot(serviceId)
        return snapshot === undefined ? 'null' : serviceToJson(snapshot)
      })
      const jobs = toJsonArray(pendingJobs, (jobId) => {
        const snapshot = store.jobSnapshot(jobId)
        return snapshot === undefined ? 'null' : jobToJson(snapshot)
      })
      const rows = pendingServices.size + pendingJobs.size
      const sync = syncToJson(store.syncSnapshot())
      const next = revision + 1n
      const startedAt = now()
      const facts = { ...meta?.(), sync, revision: next.toString(), committedAt: String(startedAt) }
      await database.transaction(async (query) => {
        if (pendingServices.size > 0) await query(upsert('tee_market_services', 'service_id'), [next.toString(), services])
        if (pendingJobs.size > 0) await query(upsert('tee_market_jobs', 'job_id'), [next.toString(), jobs])
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

/** `[["<id>", <snapshot or null>], ...]` as one JSON text: one parameter however many rows a window wrote. */
function toJsonArray(ids: ReadonlySet<bigint>, toJson: (id: bigint) => string): string {
  const parts: string[] = []
  for (const id of ids) parts.push(`["${id}",${toJson(id)}]`)
  return `[${parts.join(',')}]`
}

function upsert(table: string, idColumn: string): string {
  return `INSERT INTO ${table} (${idColumn}, revision, snapshot)
    SELECT (row->>0)::numeric, $1::bigint, CASE WHEN json_typeof(row->1) = 'null' THEN NULL ELSE (row->1)::text END
    FROM json_array_elements($2::json) AS row
    ON CONFLICT (${idColumn}) DO UPDATE SET revision = excluded.revision, snapshot = excluded.snapshot`
}
