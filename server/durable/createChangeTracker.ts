import type { BatchWatch } from '../store/createBatchWatch.ts'
import type { ChangeTracker } from '../store/ChangeTracker.ts'

export type CreateChangeTrackerParameters = {
  /** Whether to keep anything (the durable store's writer does; a replica and a store in memory do not). */
  enabled: boolean
  /** Told of every change, restores included: what the store's batch listeners see. */
  batches: Pick<BatchWatch, 'serviceChanged' | 'jobChanged'>
}

/**
 * Keeps the ids of changed records in memory until the durable store's committer takes them, and
 * passes every change on to the batch watch (a replica's restores are its only changes).
 */
export function createChangeTracker({ enabled, batches }: CreateChangeTrackerParameters): ChangeTracker {
  let serviceIds = new Set<bigint>()
  let jobIds = new Set<bigint>()
  let tracking = enabled
  return {
    serviceChanged(serviceId) {
      batches.serviceChanged(serviceId)
      if (tracking) serviceIds.add(serviceId)
    },
    jobChanged(stored) {
      batches.jobChanged(stored)
      if (tracking) jobIds.add(BigInt(stored.job.jobId))
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
