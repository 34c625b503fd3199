import type { ChangeTracker } from './ChangeTracker.ts'
import type { StoreCounters } from './StoreReader.ts'

/** What the store's record parts share. */
export type RecordPartParameters = {
  /** The store's counters: the services' part counts `services`, the jobs' part every other. */
  counters: StoreCounters
  /** Bumps the store's version (StoreReader's `version`) and returns it. */
  changed: () => number
  changes: ChangeTracker
}
