import type { DisputeEvent } from '../../contract/disputeEvent.ts'
import { compareLogs } from './compareLogs.ts'
import type { JobKey } from './jobsById.ts'

/** A job's dispute events with their arguments, kept beside its packed history (see createJobRecords). */
export type DisputeEvents = {
  /** The job's dispute events, oldest first; empty for a job never disputed. */
  get(key: JobKey): readonly DisputeEvent[]
  /** Adds an event in chain order; one already held (same block and log index) changes nothing. */
  add(key: JobKey, event: DisputeEvent): void
  /** Drops the job's events that `isHeld` says its history no longer holds (a rollback, a repair). */
  keep(key: JobKey, isHeld: (event: DisputeEvent) => boolean): void
  delete(key: JobKey): void
  clear(): void
}

const noEvents: readonly DisputeEvent[] = []

/**
 * Disputes are rare and a job's history is packed to a few slots per event with no arguments
 * (jobHistory.ts), so the arguments of the dispute events live here, in a map that holds
 * an entry only for a job that was disputed: every other job costs nothing.
 */
export function createDisputeEvents(): DisputeEvents {
  const byJob = new Map<JobKey, readonly DisputeEvent[]>()
  return {
    get: (key) => byJob.get(key) ?? noEvents,
    add(key, event) {
      const events = byJob.get(key) ?? noEvents
      if (events.some((held) => held.blockNumber === event.blockNumber && held.logIndex === event.logIndex)) return
      let index = events.length
      while (index > 0 && compareEvents(events[index - 1] as DisputeEvent, event) > 0) index -= 1
      byJob.set(key, events.toSpliced(index, 0, event))
    },
    keep(key, isHeld) {
      const events = byJob.get(key)
      if (events === undefined) return
      const kept = events.filter(isHeld)
      if (kept.length === 0) byJob.delete(key)
      else if (kept.length < events.length) byJob.set(key, kept)
    },
    delete: (key) => void byJob.delete(key),
    clear: () => byJob.clear(),
  }
}

function compareEvents(a: DisputeEvent, b: DisputeEvent): number {
  return compareLogs(a.blockNumber, a.logIndex, b)
}
