import type { StoreSnapshots, SyncSnapshot } from '../store/StoreWriter.ts'
import type { StoredPage } from './readStoredChanges.ts'

/** Puts a page of stored records into the store, in one synchronous pass. */
export function applyStoredPage(store: StoreSnapshots, page: StoredPage): void {
  if (page.kind === 'services') for (const [serviceId, snapshot] of page.records) store.restoreService(serviceId, snapshot)
  else for (const [jobId, snapshot] of page.records) store.restoreJob(jobId, snapshot)
}

/**
 * Puts a commit's pages and where indexing stood into the store in one synchronous pass, so a
 * reader sees the store before the commit or after it, never between. `standing` says which of
 * where indexing stood to take.
 */
export function applyStoredChanges(store: StoreSnapshots, { pages, sync }: { pages: readonly StoredPage[]; sync: SyncSnapshot | undefined }, { standing }: { standing: 'all' | 'resume' }): void {
  for (const page of pages) applyStoredPage(store, page)
  if (sync === undefined) return
  if (standing === 'all') return store.restoreSync(sync)
  // A restarted writer resumes from the cursor, but is ready again only once its own polls reach
  // the head: what the last process saw of the head, the polls and the self-check says nothing of
  // now (its first poll checks every record loaded: createPoll's `jobsRead`).
  const { cursor, creations, recentBlocks, staleServiceIds, staleJobIds } = sync
  store.restoreSync({ ...store.syncSnapshot(), cursor, creations, recentBlocks, staleServiceIds, staleJobIds })
}
