import type { Config } from '../../config/ConfigSchema.ts'
import { createStore, type Store } from '../store/createStore.ts'
import { applyStoredChanges, applyStoredPage } from './applyStoredChanges.ts'
import { createStoreCommitter, type StoreCommitter } from './createStoreCommitter.ts'
import type { Database } from './Database.ts'
import { prepareSchema } from './prepareSchema.ts'
import { readStoredChanges } from './readStoredChanges.ts'

export type DurableStore = {
  database: Database
  /** Loaded with what the database held: the indexer resumes from its cursor. */
  store: Store
  committer: StoreCommitter
  /** The widest `eth_getLogs` range the node accepted, as the last writer learned it. */
  logRangeLimit: bigint | undefined
  /**
   * What was loaded, and how long it took: in all, and of that the main thread's part, decoding
   * each page and putting it in the store (the rest is the database's part it did not overlap).
   */
  loaded: { services: number; jobs: number; cursor: bigint | undefined; ms: number; applyMs: number }
}

export type OpenDurableStoreParameters = {
  database: Database
  config: Pick<Config, 'chainId' | 'network' | 'registry' | 'escrow' | 'arbiter' | 'pollIntervalMs'>
  /** Told when a standby waits for the writer lock, and when the tables are rebuilt. */
  onNotice?: ((message: string) => void) | undefined
  /** The facts kept with each commit besides the store (the node limits learned). */
  meta?: (() => Record<string, string>) | undefined
  /**
   * The store to load into, empty and made with `trackChanges` (default: a new one): given, so
   * that the caller can build on it (the app) while the database opens.
   */
  store?: Store | undefined
  now?: () => number
}

/** Any number: what matters is that every indexer of a database asks for the same one. */
const writerLockKey = 7_271_555_118_463_115n

/**
 * The writer's store, loaded from the database: on Postgres, first the writer lock (a second
 * indexer waits here as a standby until the first one's session ends, as a kill -9 ends it), then
 * the tables (laid out, or rebuilt after a layout change), then every record and where indexing
 * stood. Each commit then writes what changed.
 */
export async function openDurableStore({ database, config, onNotice, meta, store: given, now = Date.now }: OpenDurableStoreParameters): Promise<DurableStore> {
  if (database.kind === 'postgres') {
    const [tried] = await database.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [writerLockKey.toString()])
    if (tried?.locked !== true) {
      onNotice?.(`standby: another indexer writes to ${database.where}; taking over when its session ends`)
      await database.query('SELECT pg_advisory_lock($1)', [writerLockKey.toString()])
      onNotice?.(`took over as the writer of ${database.where}`)
    }
  }
  await prepareSchema(database, {
    market: config,
    readOnly: false,
    onNotice: ({ message }) => onNotice?.(message),
  })
  const startedAt = now()
  const store = given ?? createStore({ pollIntervalMs: config.pollIntervalMs, chainId: config.chainId, network: config.network, trackChanges: true, now })
  // Each page goes into the store as it arrives, while the database reads the next: nothing is
  // served from this store before the load is whole (the indexer is not ready until its first poll).
  let applyMs = 0
  const changes = await readStoredChanges(database, {
    since: -1n,
    take: (page) => {
      const pageAt = now()
      applyStoredPage(store, page)
      applyMs += now() - pageAt
    },
  })
  applyStoredChanges(store, { pages: [], sync: changes.sync }, { standing: 'resume' })
  // What was just loaded is what the database holds: nothing to write back.
  store.takeChanges()
  const logRangeLimit = changes.meta.get('logRangeLimit')
  return {
    database,
    store,
    committer: createStoreCommitter({ database, store, revision: changes.revision, meta, now }),
    logRangeLimit: logRangeLimit === undefined || logRangeLimit === '' ? undefined : BigInt(logRangeLimit),
    loaded: {
      services: changes.count.services,
      jobs: changes.count.jobs,
      cursor: store.sync.cursor?.number,
      ms: now() - startedAt,
      applyMs,
    },
  }
}
