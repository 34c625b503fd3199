import { compareUintText } from '../../contract/compareUintText.ts'
import type { JobRecords } from './createJobRecords.ts'
import { beforeRange, type ServiceRecords } from './createServiceRecords.ts'
import type { SyncState } from './createSyncState.ts'
import { blockNumberAt, eventNameAt, eventSlots, type JobEntry } from './jobHistory.ts'
import type { BlockRef } from './StoreReader.ts'
import type { StoreWriter } from './StoreWriter.ts'

export type CreateRollbackParameters = {
  services: ServiceRecords
  jobs: JobRecords
  syncState: SyncState
  /** Bumps the store's version (StoreReader's `version`) and returns it. */
  changed: () => number
}

/** StoreWriter's `rollback`: the records, the recent blocks, the cursor and the creation count go back to `ancestor`. */
export function createRollback({ services, jobs, syncState, changed }: CreateRollbackParameters): StoreWriter['rollback'] {
  return (ancestor) => {
    rollBackServices(services, ancestor, changed)
    rollBackJobs(jobs, ancestor)
    const { sync, recentBlocks } = syncState
    for (const number of recentBlocks.keys()) if (number > ancestor.number) recentBlocks.delete(number)
    sync.cursor = ancestor
    const { first, checkedAt } = sync.creations
    sync.creations = {
      first,
      next: { service: nextAfter(lastRegisteredServiceId(services)) ?? first.service, job: nextAfter(lastCreatedJobId(jobs)) ?? first.job },
      checkedAt: checkedAt === undefined || checkedAt <= ancestor.number ? checkedAt : ancestor.number,
    }
  }
}

/** Drops the services registered above `ancestor`, and the events above it of the others, which are read again. */
function rollBackServices(services: ServiceRecords, ancestor: BlockRef, changed: () => number): void {
  const ancestorNumber = ancestor.number.toString()
  const isAbove = ({ blockNumber }: { blockNumber: string }): boolean => compareUintText(blockNumber, ancestorNumber) > 0
  for (const [serviceId, entry] of services.entries) {
    if (entry.registeredBlock > ancestor.number) services.delete(serviceId, entry)
    else if (entry.lastBlock > ancestor.number) {
      entry.lastBlock = ancestor.number
      services.setEvents(serviceId, entry, entry.events.filter((event) => !isAbove(event)))
      services.stale.add(serviceId)
      changed()
    }
  }
}

/** Drops the jobs created above `ancestor`, and the events above it of the others, which are read again. */
function rollBackJobs(jobs: JobRecords, ancestor: BlockRef): void {
  const ancestorNumber = ancestor.number.toString()
  const { entries } = jobs
  // Backwards, so that deleting a job leaves the ones still to visit in place.
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index] as JobEntry
    const jobId = BigInt(entry.job.jobId)
    // A job changes only through its own logs, each held as an event: the last one tells
    // whether the job was touched above the ancestor, JobCreated whether it exists there at all.
    const { history } = entry
    const isAboveAt = (at: number): boolean => compareUintText(blockNumberAt(history, at), ancestorNumber) > 0
    if (history.length === 0 || !isAboveAt(history.length - eventSlots)) continue
    let created = false
    for (let at = 0; at < history.length; at += eventSlots)
      if (eventNameAt(history, at) === 'JobCreated' && isAboveAt(at)) created = true
    if (created) {
      jobs.delete(jobId, entry)
      continue
    }
    let firstAbove = 0
    while (!isAboveAt(firstAbove)) firstAbove += eventSlots
    jobs.setHistory(entry, history.slice(0, firstAbove))
    jobs.stale.add(jobId)
  }
}

/** The highest id registered within the indexed range (ids are handed out in chain order). */
function lastRegisteredServiceId({ entries }: ServiceRecords): bigint | undefined {
  let last: bigint | undefined
  for (const [serviceId, entry] of entries) {
    if (entry.registeredBlock !== beforeRange && (last === undefined || serviceId > last)) last = serviceId
  }
  return last
}

/** The highest id created within the indexed range: jobs created before it have lower ids. */
function lastCreatedJobId({ entries }: JobRecords): bigint | undefined {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const { history, job } = entries[index] as JobEntry
    for (let at = 0; at < history.length; at += eventSlots) if (eventNameAt(history, at) === 'JobCreated') return BigInt(job.jobId)
  }
  return undefined
}

function nextAfter(id: bigint | undefined): bigint | undefined {
  return id === undefined ? undefined : id + 1n
}
