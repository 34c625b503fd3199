import type { ChangeTracker } from '../store/ChangeTracker.ts'

export type CreateChangeTrackerParameters = {
  /** Whether to keep anything (the durable store's writer does; a replica and a store in memory do not). */
  enabled: boolean
}

/** Keeps the ids of changed records in memory until the durable store's committer takes them. */
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
