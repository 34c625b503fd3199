import { createChangeTracker } from '../durable/createChangeTracker.ts'
import { createBatchWatch } from './createBatchWatch.ts'
import { createStoreSnapshots } from '../durable/createStoreSnapshots.ts'
import { createJobRecords } from './createJobRecords.ts'
import { createRollback } from './createRollback.ts'
import { createServiceRecords } from './createServiceRecords.ts'
import { createTeeVerdicts } from './createTeeVerdicts.ts'
import { createSyncState } from './createSyncState.ts'
import type { StoreCounters, StoreReader } from './StoreReader.ts'
import type { StoreWriter } from './StoreWriter.ts'

/** The in-memory store: one object is both sides, so a reader sees each write at once. */
export type Store = StoreReader & StoreWriter

export type CreateStoreParameters = {
  pollIntervalMs: number
  chainId: number
  /** Configured network name, e.g. "devnet" or "0g-mainnet". */
  network: string
  /** How many applied blocks are remembered for reorg detection. */
  recentBlockLimit?: number
  /** Keep the ids of changed records for `takeChanges` (the durable store's writer does). */
  trackChanges?: boolean
  /** Told when a batch listener throws (see watchBatches); the write it followed stands. */
  onListenerError?: (error: unknown) => void
  now?: () => number
}

/**
 * The in-memory read model: contract-shaped records ready to serve, indexes for the readers,
 * counters derived from events, and the cursor. Every mutation is synchronous, so a reader never
 * sees one half done (applyLogs applies a window in slices of whole blocks).
 *
 * Made of parts that share the counters, the version and the change tracker: the records
 * (createServiceRecords, createJobRecords), where indexing stands (createSyncState), the rollback
 * (createRollback) and the durable store's snapshots (createStoreSnapshots). The readers' methods
 * for single records, lists and indexes are the parts' own functions, so those reads go through
 * no extra call.
 */
export function createStore({
  pollIntervalMs,
  chainId,
  network,
  recentBlockLimit = 64,
  trackChanges = false,
  onListenerError = () => undefined,
  now = Date.now,
}: CreateStoreParameters): Store {
  const counters: StoreCounters = {
    services: 0,
    jobs: 0,
    settledJobs: 0,
    expiredJobs: 0,
    slashedJobs: 0,
    totalSettledWei: 0n,
  }
  let version = 0
  const changed = (): number => {
    version += 1
    return version
  }
  const batches = createBatchWatch({ onListenerError })
  const changes = createChangeTracker({ enabled: trackChanges, batches })
  const services = createServiceRecords({ counters, changed, changes })
  const jobs = createJobRecords({ counters, changed, changes })
  const syncState = createSyncState({ pollIntervalMs, chainId, network, recentBlockLimit, changed, now })
  const teeVerdicts = createTeeVerdicts({ changed })
  const snapshots = createStoreSnapshots({ services, jobs, syncState, changes, changed })

  return {
    get version() {
      return version
    },
    counters,
    sync: syncState.sync,

    service: services.service,
    serviceEvents: services.serviceEvents,
    serviceList: services.serviceList,
    sellerServiceIds: services.sellerServiceIds,
    job: jobs.job,
    jobDispute: jobs.jobDispute,
    jobList: jobs.entries,
    get jobIds() {
      return jobs.ids()
    },
    sellerJobs: jobs.sellerJobs,
    buyerJobs: jobs.buyerJobs,
    serviceJobs: jobs.serviceJobs,
    stateJobs: jobs.stateJobs,
    teeVerdict: teeVerdicts.teeVerdict,
    teeEvidence: teeVerdicts.teeEvidence,
    teeVerdictList: teeVerdicts.teeVerdictList,
    watchBatches: batches.watch,
    transactionRecords: (transactionHash) => ({ jobs: jobs.transactionJobs(transactionHash), services: services.transactionServices(transactionHash) }),

    staleServiceIds: services.stale,
    staleJobIds: jobs.stale,
    putService: services.putService,
    addServiceEvent: services.addServiceEvent,
    putJob: jobs.putJob,
    addJobEvent: jobs.addJobEvent,
    replaceJob: jobs.replaceJob,
    putTeeVerdict: teeVerdicts.putTeeVerdict,

    recentBlocks: syncState.recentBlocks,
    advance(block, creations) {
      syncState.advance(block, creations)
      batches.end()
    },
    headSeen: syncState.headSeen,
    polled(poll) {
      syncState.polled(poll)
      batches.end()
    },
    nodesStalled: syncState.nodesStalled,
    pollFailed: syncState.pollFailed,
    servingChain: syncState.servingChain,
    selfChecked: syncState.selfChecked,
    followingNewHeads: syncState.followingNewHeads,
    headAnnounced: syncState.headAnnounced,
    followedWriter: syncState.followedWriter,

    rollback: createRollback({ services, jobs, syncState, changed }),
    clear() {
      services.clear()
      jobs.clear()
      syncState.clear()
      teeVerdicts.clear()
      batches.end()
    },

    takeChanges: snapshots.takeChanges,
    serviceSnapshot: snapshots.serviceSnapshot,
    jobSnapshot: snapshots.jobSnapshot,
    syncSnapshot: snapshots.syncSnapshot,
    restoreService: snapshots.restoreService,
    restoreJob: snapshots.restoreJob,
    restoreSync(snapshot) {
      snapshots.restoreSync(snapshot)
      batches.end()
    },
  }
}
