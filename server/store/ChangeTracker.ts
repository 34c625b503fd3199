import type { StoredJob } from './StoreReader.ts'
import type { StoreChanges } from './StoreWriter.ts'

/** The ids of the records changed since the last `take`: what the durable store's next commit writes. */
export type ChangeTracker = {
  serviceChanged(serviceId: bigint): void
  /** Takes the job rather than its id: a store that keeps no changes never parses one. */
  jobChanged(job: StoredJob): void
  /** Runs `restore` without keeping its changes: a restore puts back what the database holds, nothing of it is to be written back. */
  untracked(restore: () => void): void
  /** The ids kept since the last call (see StoreWriter's `takeChanges`), which starts a new set. */
  take(): StoreChanges
}
