import type { JobRecords } from '../store/createJobRecords.ts'
import { beforeRange, type ServiceRecords } from '../store/createServiceRecords.ts'
import type { SyncState } from '../store/createSyncState.ts'
import { eventSlots, settledWeiAt, type HistorySlot, type JobEntry } from '../store/jobHistory.ts'
import type { StoreSnapshots } from '../store/StoreWriter.ts'
import type { ChangeTracker } from '../store/ChangeTracker.ts'

export type CreateStoreSnapshotsParameters = {
  services: ServiceRecords
  jobs: JobRecords
  syncState: SyncState
  changes: ChangeTracker
  /** Bumps the store's version (StoreReader's `version`) and returns it. */
  changed: () => number
}

/** The store's records and standing as the durable store keeps them, and put back from what it kept. */
export function createStoreSnapshots({ services, jobs, syncState, changes, changed }: CreateStoreSnapshotsParameters): StoreSnapshots {
  const { sync, recentBlocks } = syncState
  return {
    takeChanges: changes.take,

    serviceSnapshot(serviceId) {
      const entry = services.entries.get(serviceId)
      if (entry === undefined) return undefined
      const { service, events, registeredBlock, lastBlock } = entry
      return {
        service,
        events,
        registeredBlock: registeredBlock === beforeRange ? undefined : registeredBlock,
        lastBlock: lastBlock === beforeRange ? undefined : lastBlock,
      }
    },

    jobSnapshot(jobId) {
      const entry = jobs.find(jobId)
      if (entry === undefined) return undefined
      const { history } = entry
      const disputeEvents = jobs.disputes.get(entry.key)
      return {
        job: entry.job,
        events: entry.events.map((event, index) => ({
          event,
          settledWei: settledWeiAt(history, index * eventSlots),
          dispute: disputeEvents.find(({ blockNumber, logIndex }) => blockNumber === event.blockNumber && logIndex === event.logIndex),
        })),
      }
    },

    syncSnapshot() {
      const { cursor, creations, headBlock, backfilledAt, lastPollAt, polls, failedPolls, lastError, selfCheck, newHeads, lastHeadAt } = sync
      return {
        cursor,
        creations,
        headBlock,
        backfilledAt,
        lastPollAt,
        polls,
        failedPolls,
        lastError,
        selfCheck,
        newHeads,
        lastHeadAt,
        recentBlocks: [...recentBlocks].map(([number, hash]) => ({ number, hash })),
        staleServiceIds: [...services.stale],
        staleJobIds: [...jobs.stale],
      }
    },

    restoreService(serviceId, snapshot) {
      changes.untracked(() => {
        const held = services.entries.get(serviceId)
        if (held !== undefined) services.delete(serviceId, held)
        if (snapshot === undefined) return
        services.putService({ serviceId, service: snapshot.service, block: snapshot.lastBlock, registeredBlock: snapshot.registeredBlock })
        for (const event of snapshot.events) services.addServiceEvent({ serviceId, event })
      })
    },

    restoreJob(jobId, snapshot) {
      changes.untracked(() => {
        if (snapshot === undefined) {
          const held = jobs.find(jobId)
          if (held !== undefined) jobs.delete(jobId, held)
          return
        }
        jobs.putJob({ jobId, job: snapshot.job })
        const entry = jobs.find(jobId) as JobEntry
        // A snapshot's events are a history this store wrote, oldest first and each log once: packed
        // in one pass (a load puts back every job at once), not inserted one by one as logs arrive.
        const history: HistorySlot[] = new Array(snapshot.events.length * eventSlots)
        snapshot.events.forEach(({ event, settledWei }, index) => jobs.writeEvent(history, index * eventSlots, entry, event, settledWei))
        jobs.setHistory(entry, history)
        for (const { dispute } of snapshot.events) if (dispute !== undefined) jobs.disputes.add(entry.key, dispute)
      })
    },

    restoreSync({ recentBlocks: blocks, staleServiceIds, staleJobIds, ...standing }) {
      Object.assign(sync, standing)
      recentBlocks.clear()
      for (const { number, hash } of blocks) recentBlocks.set(number, hash)
      services.stale.clear()
      for (const serviceId of staleServiceIds) services.stale.add(serviceId)
      jobs.stale.clear()
      for (const jobId of staleJobIds) jobs.stale.add(jobId)
      changed()
    },
  }
}
