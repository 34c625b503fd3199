import type { Config } from '../../config/ConfigSchema.ts'
import { createStore, type Store } from '../store/createStore.ts'
import { applyStoredChanges, applyStoredPage } from './applyStoredChanges.ts'
import { commitChannel } from './createStoreCommitter.ts'
import type { Database } from './Database.ts'
import { prepareSchema } from './prepareSchema.ts'
import { readStoredChanges, type StoredPage } from './readStoredChanges.ts'

export type FollowDurableStoreParameters = {
  database: Database
  config: Pick<Config, 'chainId' | 'network' | 'registry' | 'escrow' | 'arbiter' | 'pollIntervalMs'>
  /** Between two looks for commits a NOTIFY did not announce (default 1,000 ms): the safety net. */
  pollIntervalMs?: number
  /** A look that failed (it is retried at the next one). */
  onError?: ((error: unknown) => void) | undefined
  /** Told when the replica waits for its writer to lay the tables out. */
  onNotice?: ((message: string) => void) | undefined
  /** The store to load into, empty (default: a new one): given, so that the caller can build on it while the database opens. */
  store?: Store | undefined
  now?: () => number
}

export type DurableStoreFollower = {
  /** The writer's index, in memory, as of its last commit applied here. */
  store: Store
  /** Applies what the writer committed since the last look (NOTIFY and the poll call it; so may tests). */
  catchUp(): Promise<void>
  stop(): Promise<void>
}

/**
 * A read-only replica's store: loaded from the database the writer keeps, then following it.
 * Each commit the writer announces (LISTEN/NOTIFY, with a poll as a safety net) is read in one
 * transaction and applied in one synchronous pass; where indexing stands is the writer's, so the
 * replica answers as the writer does, and reports how far behind it is (store.sync.replica).
 */
export async function followDurableStore({
  database,
  config,
  pollIntervalMs = 1_000,
  onError,
  onNotice,
  store: given,
  now = Date.now,
}: FollowDurableStoreParameters): Promise<DurableStoreFollower> {
  await prepareSchema(database, {
    market: config,
    readOnly: true,
    onNotice: ({ message }) => onNotice?.(message),
  })
  const store = given ?? createStore({ pollIntervalMs: config.pollIntervalMs, chainId: config.chainId, network: config.network, now })
  let revision = -1n
  let running: Promise<void> | undefined
  let again = false

  const look = async (): Promise<void> => {
    // The first look loads everything, page by page as it arrives (the replica is not ready before
    // it ends); each later one holds a commit's pages and applies them at once.
    const loading = revision < 0n
    const pages: StoredPage[] = []
    const changes = await readStoredChanges(database, { since: revision, take: (page) => (loading ? applyStoredPage(store, page) : pages.push(page)) })
    const checkedAt = now()
    if (changes.revision !== revision) {
      applyStoredChanges(store, { pages, sync: changes.sync }, { standing: 'all' })
      revision = changes.revision
      store.followedWriter({ revision, behindWriterMs: Math.max(0, checkedAt - (changes.committedAt ?? checkedAt)), checkedAt })
    } else if (store.sync.replica !== undefined) {
      store.followedWriter({ ...store.sync.replica, checkedAt })
    }
  }
  // Looks never overlap: a commit announced during one is read by the next, right after it.
  const catchUp = (): Promise<void> => {
    if (running !== undefined) {
      again = true
      return running
    }
    running = look().finally(() => {
      running = undefined
      if (again) {
        again = false
        void catchUp().catch(onError)
      }
    })
    return running
  }

  await catchUp()
  const unlisten = await database.listen(commitChannel, () => void catchUp().catch(onError))
  const timer = setInterval(() => void catchUp().catch(onError), pollIntervalMs)
  return {
    store,
    catchUp,
    stop: async () => {
      clearInterval(timer)
      await unlisten()
      await running?.catch(() => undefined)
    },
  }
}
