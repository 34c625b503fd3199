import type { StoreWriter } from '../store/StoreWriter.ts'
import type { StoredChanges } from './readStoredChanges.ts'

/**
 * Puts what was read into the store in one synchronous pass, so a reader sees the store before
 * the commit or after it, never between. `sync` says which of where indexing stood to take.
 */
export function applyStoredChanges(store: StoreWriter, { services, jobs, sync }: StoredChanges, { standing }: { standing: 'all' | 'resume' }): void {
  for (const [serviceId, snapshot] of services) store.restoreService(serviceId, snapshot)
  for (const [jobId, snapshot] of jobs) store.restoreJob(jobId, snapshot)
  if (sync === undefined) return
  if (standing === 'all') return store.restoreSync(sync)
  // A restarted writer resumes from the cursor, but is ready again only once its own polls reach
  // the head: what the last process saw of the head, the polls and the self-check says nothing of
  // now (its first poll checks every record loaded, see createIndexer's `resumed`).
  const { cursor, creations, recentBlocks, staleServiceIds, staleJobIds } = sync
  store.restoreSync({ ...store.syncSnapshot(), cursor, creations, recentBlocks, staleServiceIds, staleJobIds })
}
