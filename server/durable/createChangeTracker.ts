import type { StoredJob } from '../store/StoreReader.ts'
import type { StoreChanges } from '../store/StoreWriter.ts'

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

export type CreateChangeTrackerParameters = {
  /** Whether to keep anything (the durable store's writer does; a replica and a store in memory do not). */
  enabled: boolean
}

export function createChangeTracker({ enabled }: CreateChangeTrackerParameters): ChangeTracker {
  let serviceIds = new Set<bigint>()
  let jobIds = new Set<bigint>()
  let tracking = enabled
  return {
    serviceChanged(serviceId) {
      if (tracking) serviceIds.add(serviceId)
    },
    jobChanged({ job }) {
      if (tracking) jobIds.add(BigInt(job.jobId))
    },
    untracked(restore) {
      tracking = false
      try {
        restore()
      } finally {
        tracking = enabled
      }
    },
    take() {
      const changes = { serviceIds: [...serviceIds], jobIds: [...jobIds] }
      serviceIds = new Set()
      jobIds = new Set()
      return changes
    },
  }
}
