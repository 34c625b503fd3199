import type { StoreBatch, StoredJob, StoreReader } from './StoreReader.ts'

/** The store's side of StoreReader's `watchBatches`: the ids changed since the last batch ended, and who is told. */
export type BatchWatch = {
  serviceChanged(serviceId: bigint): void
  /** Takes the job rather than its id, as ChangeTracker does: nobody listening, nothing is parsed. */
  jobChanged(job: Pick<StoredJob, 'job'>): void
  /** Ends a batch: every listener is told what changed in it, even nothing (the cursor may have moved). */
  end(): void
  watch: StoreReader['watchBatches']
}

/**
 * Keeps the ids changed between two batch ends, only while someone listens: a store nobody
 * watches (the bench's, a tool's) pays one size check per change. A listener that throws is
 * reported through `onListenerError` and never stops the store's write.
 */
export function createBatchWatch({ onListenerError }: { onListenerError: (error: unknown) => void }): BatchWatch {
  const listeners = new Set<(batch: StoreBatch) => void>()
  let serviceIds = new Set<bigint>()
  let jobIds = new Set<bigint>()
  return {
    serviceChanged(serviceId) {
      if (listeners.size > 0) serviceIds.add(serviceId)
    },
    jobChanged({ job }) {
      if (listeners.size > 0) jobIds.add(BigInt(job.jobId))
    },
    end() {
      if (listeners.size === 0) return
      const batch: StoreBatch = { serviceIds: [...serviceIds], jobIds: [...jobIds] }
      serviceIds = new Set()
      jobIds = new Set()
      for (const listener of listeners) {
        try {
          listener(batch)
        } catch (error) {
          onListenerError(error)
        }
      }
    },
    watch(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
