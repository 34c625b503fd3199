import type { Hash } from 'viem'
import type { Job, JobEvent } from '../../contract/job.ts'
import type { Service } from '../../contract/service.ts'
import type { ServiceEvent } from '../../contract/serviceEvent.ts'
import { compareUintText } from './compareUintText.ts'
import { createTransactionIndex, sameSlot } from './createTransactionIndex.ts'
import { createValuePool } from './createValuePool.ts'
import { createDisputeEvents } from './createDisputeEvents.ts'
import { createJobIndex } from './createJobIndex.ts'
import {
  blockNumberAt,
  eventCode,
  eventNameAt,
  eventSlots,
  JobEntry,
  logIndexAt,
  noHistory,
  holds,
  settledWeiAt,
  transactionHashAt,
  type History,
  type HistorySlot,
} from './jobHistory.ts'
import { insertById, jobKey, lowerBoundById, removeById, type JobKey } from './jobsById.ts'
import type { StoredJob, StoreCounters, StoreReader, StoreSync } from './StoreReader.ts'
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
  now?: () => number
}

/** Registration or creation before the indexed range: no rollback can remove it. */
const beforeRange = -1n

type ServiceEntry = { service: Service; registeredBlock: bigint; lastBlock: bigint; events: readonly ServiceEvent[] }
type SellerIndex = { serviceIds: bigint[] }

const noIds: readonly bigint[] = []
const noJobs: readonly StoredJob[] = []
const noServiceEvents: readonly ServiceEvent[] = []

/**
 * How many distinct values each pool remembers. Addresses, amounts, block numbers and times,
 * provider names and certificates repeat across jobs of nearby blocks, settled amounts across
 * jobs of a service; a transaction's hash repeats only across its own logs, which come together,
 * so a short pool keeps those hashes from pushing the others out.
 */
const valuePoolLimit = 4_096
const transactionHashPoolLimit = 256

/**
 * The in-memory read model: contract-shaped records ready to serve, indexes for the readers,
 * counters derived from events, and the cursor. Every mutation is synchronous, so a reader never
 * sees one half done (applyLogs applies a window in slices of whole blocks).
 *
 * Memory per job is kept low (npm run bench, section 5): a job is its served record plus its
 * packed history (where it was created and last touched is read from it), kept in arrays sorted
 * by id and found there by position (no map entry, no bigint per job), and strings that repeat
 * across jobs are shared through small pools. The job queries' indexes (by buyer, seller,
 * service and state) are arrays of the same entries, sorted by id: one pointer per job in each.
 * A dispute's events with their arguments are kept apart (createDisputeEvents), for disputed jobs only.
 */
export function createStore({
  pollIntervalMs,
  chainId,
  network,
  recentBlockLimit = 64,
  trackChanges = false,
  now = Date.now,
}: CreateStoreParameters): Store {
  const serviceEntries = new Map<bigint, ServiceEntry>()
  /** Every entry, ascending by id: found by position, and walked by the readers with no lookups. */
  const jobs: JobEntry[] = []
  const sellers = new Map<string, SellerIndex>()
  // Keyed as the job record spells them, lowercased for addresses: a query's address in any case finds its group.
  const jobsBySeller = createJobIndex<string, JobEntry>()
  const jobsByBuyer = createJobIndex<string, JobEntry>()
  const jobsByService = createJobIndex<string, JobEntry>()
  const jobsByState = createJobIndex<number, JobEntry>()
  const counters: StoreCounters = {
    services: 0,
    jobs: 0,
    settledJobs: 0,
    expiredJobs: 0,
    slashedJobs: 0,
    totalSettledWei: 0n,
  }
  const staleServiceIds = new Set<bigint>()
  const staleJobIds = new Set<bigint>()
  const recentBlocks = new Map<bigint, Hash>()
  const poolValue = createValuePool<string>({ limit: valuePoolLimit })
  const poolTransactionHash = createValuePool<string>({ limit: transactionHashPoolLimit })
  const poolWei = createValuePool<bigint>({ limit: valuePoolLimit })
  const jobsByTransaction = createTransactionIndex<JobKey>()
  const disputes = createDisputeEvents()
  const servicesByTransaction = createTransactionIndex<bigint>()
  const sync: StoreSync = {
    cursor: undefined,
    headBlock: undefined,
    backfilledAt: undefined,
    lastPollAt: undefined,
    startedAt: now(),
    pollIntervalMs,
    chainId,
    network,
    newHeads: 'off',
    lastHeadAt: undefined,
    creations: { next: { service: undefined, job: undefined }, first: { service: undefined, job: undefined }, checkedAt: undefined },
    chainMismatch: undefined,
    stalledNodes: [],
    lastError: undefined,
    polls: 0,
    failedPolls: 0,
    selfCheck: { lastRunAt: undefined, checkedServices: 0, checkedJobs: 0, differences: 0, unrepaired: 0, repairs: 0 },
    replica: undefined,
  }
  let serviceListCache: Service[] | undefined
  let version = 0
  const changed = (): number => {
    version += 1
    return version
  }

  const sellerIndex = (seller: string): SellerIndex => {
    const key = seller.toLowerCase()
    let index = sellers.get(key)
    if (index === undefined) {
      index = { serviceIds: [] }
      sellers.set(key, index)
    }
    return index
  }

  const count = (history: History, sign: 1 | -1): void => {
    let settled = false
    let expired = false
    let slashed = false
    for (let at = 0; at < history.length; at += eventSlots) {
      const name = eventNameAt(history, at)
      if (name === 'JobExpired') expired = true
      if (name === 'JobSlashed') slashed = true
      if (name !== 'JobSettled') continue
      settled = true
      const wei = settledWeiAt(history, at)
      if (wei !== undefined) counters.totalSettledWei += sign === 1 ? wei : -wei
    }
    if (settled) counters.settledJobs += sign
    if (expired) counters.expiredJobs += sign
    if (slashed) counters.slashedJobs += sign
  }

  let changedServiceIds = new Set<bigint>()
  let changedJobIds = new Set<bigint>()
  // A restore puts back what the database holds: nothing of it is to be written back.
  let tracking = trackChanges
  const serviceChanged = (serviceId: bigint): void => {
    if (tracking) changedServiceIds.add(serviceId)
  }
  const jobChanged = (entry: JobEntry): void => {
    if (tracking) changedJobIds.add(BigInt(entry.job.jobId))
  }
  const restoring = (restore: () => void): void => {
    tracking = false
    try {
      restore()
    } finally {
      tracking = trackChanges
    }
  }

  /** Replaces a job's history: the counters, the transaction index and the dispute's events follow. */
  const setHistory = (entry: JobEntry, history: History): void => {
    jobChanged(entry)
    count(entry.history, -1)
    forgetTransactions(entry, history)
    disputes.keep(entry.key, (event) => holds(history, event))
    count(history, 1)
    entry.history = history
    entry.version = changed()
  }

  /** Drops the job's key from the slots of its transactions that no event of `kept` shares. */
  const forgetTransactions = (entry: JobEntry, kept: History): void => {
    for (let at = 0; at < entry.history.length; at += eventSlots) {
      const transactionHash = transactionHashAt(entry.history, at)
      let shared = false
      for (let keptAt = 0; keptAt < kept.length && !shared; keptAt += eventSlots)
        shared = sameSlot(transactionHashAt(kept, keptAt), transactionHash)
      if (!shared) jobsByTransaction.remove(transactionHash, entry.key)
    }
  }

  /** Replaces a service's event list; the transaction index follows. */
  const setServiceEvents = (serviceId: bigint, entry: ServiceEntry, events: readonly ServiceEvent[]): void => {
    serviceChanged(serviceId)
    for (const event of entry.events)
      if (!events.includes(event) && !events.some(({ transactionHash }) => sameSlot(transactionHash, event.transactionHash)))
        servicesByTransaction.remove(event.transactionHash, serviceId)
    entry.events = events
  }

  const deleteService = (serviceId: bigint, entry: ServiceEntry): void => {
    setServiceEvents(serviceId, entry, noServiceEvents)
    serviceEntries.delete(serviceId)
    staleServiceIds.delete(serviceId)
    removeSorted(sellerIndex(entry.service.seller).serviceIds, serviceId)
    counters.services -= 1
    serviceListCache = undefined
    changed()
  }

  /** The highest id registered within the indexed range (ids are handed out in chain order). */
  const lastRegisteredServiceId = (): bigint | undefined => {
    let last: bigint | undefined
    for (const [serviceId, entry] of serviceEntries) {
      if (entry.registeredBlock !== beforeRange && (last === undefined || serviceId > last)) last = serviceId
    }
    return last
  }

  /** The highest id created within the indexed range: jobs created before it have lower ids. */
  const lastCreatedJobId = (): bigint | undefined => {
    for (let index = jobs.length - 1; index >= 0; index -= 1) {
      const { history, job } = jobs[index] as JobEntry
      for (let at = 0; at < history.length; at += eventSlots) if (eventNameAt(history, at) === 'JobCreated') return BigInt(job.jobId)
    }
    return undefined
  }

  const indexJob = (entry: JobEntry, job: Job): void => {
    jobsBySeller.add(job.seller.toLowerCase(), entry)
    jobsByBuyer.add(job.buyer.toLowerCase(), entry)
    jobsByService.add(job.serviceId, entry)
    jobsByState.add(job.state, entry)
  }

  const unindexJob = (entry: JobEntry, job: Job): void => {
    jobsBySeller.remove(job.seller.toLowerCase(), entry)
    jobsByBuyer.remove(job.buyer.toLowerCase(), entry)
    jobsByService.remove(job.serviceId, entry)
    jobsByState.remove(job.state, entry)
  }

  /** Moves the entry between groups for what changed: on chain only the state does, but a repair may replace any field. */
  const reindexJob = (entry: JobEntry, before: Job, after: Job): void => {
    if (before.state !== after.state) {
      jobsByState.remove(before.state, entry)
      jobsByState.add(after.state, entry)
    }
    if (before.seller !== after.seller || before.buyer !== after.buyer || before.serviceId !== after.serviceId) {
      jobsBySeller.remove(before.seller.toLowerCase(), entry)
      jobsByBuyer.remove(before.buyer.toLowerCase(), entry)
      jobsByService.remove(before.serviceId, entry)
      jobsBySeller.add(after.seller.toLowerCase(), entry)
      jobsByBuyer.add(after.buyer.toLowerCase(), entry)
      jobsByService.add(after.serviceId, entry)
    }
  }

  /** Writes an event's slots into a job's history at `at` (see jobHistory.ts), its transaction indexed under the job. */
  const writeEvent = (history: HistorySlot[], at: number, entry: JobEntry, event: JobEvent, settledWei: bigint | undefined): void => {
    const transactionHash = poolTransactionHash(event.transactionHash)
    jobsByTransaction.add(transactionHash, entry.key)
    history[at] = eventCode(event)
    history[at + 1] = poolValue(event.blockNumber)
    history[at + 2] = transactionHash
    history[at + 3] = poolValue(event.timestamp)
    history[at + 4] = event.event === 'JobSettled' && settledWei !== undefined ? poolWei(settledWei) : undefined
  }

  const deleteJob = (jobId: bigint, entry: JobEntry): void => {
    jobChanged(entry)
    count(entry.history, -1)
    forgetTransactions(entry, noHistory)
    disputes.delete(entry.key)
    staleJobIds.delete(jobId)
    removeById(jobs, entry)
    unindexJob(entry, entry.job)
    counters.jobs -= 1
    changed()
  }

  const store: Store = {
    get version() {
      return version
    },
    service: (serviceId) => serviceEntries.get(serviceId)?.service,
    serviceEvents: (serviceId) => serviceEntries.get(serviceId)?.events,
    job: (jobId) => findJob(jobs, jobKey(jobId)),
    jobDispute(jobId) {
      const key = jobKey(jobId)
      return findJob(jobs, key) === undefined ? undefined : disputes.get(key)
    },
    jobList: jobs,
    get jobIds() {
      return jobs.map(({ job }) => BigInt(job.jobId))
    },
    counters,
    sync,
    staleServiceIds,
    staleJobIds,
    recentBlocks,

    serviceList() {
      serviceListCache ??= [...serviceEntries]
        .sort(([a], [b]) => compare(a, b))
        .map(([, entry]) => entry.service)
      return serviceListCache
    },
    sellerServiceIds: (seller) => sellers.get(seller.toLowerCase())?.serviceIds ?? noIds,
    sellerJobs: (seller) => jobsBySeller.get(seller.toLowerCase()) ?? noJobs,
    buyerJobs: (buyer) => jobsByBuyer.get(buyer.toLowerCase()) ?? noJobs,
    serviceJobs: (serviceId) => jobsByService.get(serviceId.toString()) ?? noJobs,
    stateJobs: (state) => jobsByState.get(state) ?? noJobs,

    transactionRecords(transactionHash) {
      const touchedJobs: StoredJob[] = []
      for (const key of jobsByTransaction.get(transactionHash)) {
        const entry = findJob(jobs, key)
        if (entry === undefined) continue
        for (let at = 0; at < entry.history.length; at += eventSlots)
          if (transactionHashAt(entry.history, at) === transactionHash) {
            touchedJobs.push(entry)
            break
          }
      }
      const touchedServices: { service: Service; events: readonly ServiceEvent[] }[] = []
      for (const serviceId of servicesByTransaction.get(transactionHash)) {
        const entry = serviceEntries.get(serviceId)
        if (entry !== undefined && entry.events.some((event) => event.transactionHash === transactionHash))
          touchedServices.push({ service: entry.service, events: entry.events })
      }
      touchedJobs.sort((a, b) => compareUintText(a.job.jobId, b.job.jobId))
      touchedServices.sort((a, b) => compareUintText(a.service.serviceId, b.service.serviceId))
      return { jobs: touchedJobs, services: touchedServices }
    },

    putService({ serviceId, service, block, registeredBlock }) {
      serviceChanged(serviceId)
      const entry = serviceEntries.get(serviceId)
      if (entry === undefined) {
        serviceEntries.set(serviceId, {
          service,
          registeredBlock: registeredBlock ?? beforeRange,
          lastBlock: block ?? beforeRange,
          events: noServiceEvents,
        })
        insertSorted(sellerIndex(service.seller).serviceIds, serviceId)
        counters.services += 1
      } else {
        entry.service = service
        if (registeredBlock !== undefined) entry.registeredBlock = registeredBlock
        if (block !== undefined && block > entry.lastBlock) entry.lastBlock = block
      }
      staleServiceIds.delete(serviceId)
      serviceListCache = undefined
      changed()
    },

    putJob({ jobId, job }) {
      if (job.jobId !== jobId.toString()) throw new RangeError(`Job ${jobId} must be stored under its own id, not "${job.jobId}".`)
      job.serviceId = poolValue(job.serviceId)
      job.buyer = poolValue(job.buyer)
      job.seller = poolValue(job.seller)
      job.amount = poolValue(job.amount)
      job.protocolFee = poolValue(job.protocolFee)
      job.createdAt = poolValue(job.createdAt)
      job.timeout = poolValue(job.timeout)
      if (job.attestation) {
        job.attestation.providerType = poolValue(job.attestation.providerType)
        job.attestation.providerIdentity = poolValue(job.attestation.providerIdentity)
        job.attestation.tlsCertFingerprint = poolValue(job.attestation.tlsCertFingerprint)
      }
      const key = jobKey(jobId)
      const entry = findJob(jobs, key)
      if (entry === undefined) {
        const created = new JobEntry(job, changed(), key)
        insertById(jobs, created)
        indexJob(created, job)
        counters.jobs += 1
      } else {
        reindexJob(entry, entry.job, job)
        entry.job = job
        entry.version = changed()
      }
      if (tracking) changedJobIds.add(jobId)
      staleJobIds.delete(jobId)
    },

    addJobEvent({ jobId, event, settledWei: wei, dispute }) {
      const entry = findJob(jobs, jobKey(jobId))
      if (entry === undefined) throw new RangeError(`Job ${jobId} must be stored before its events.`)
      const { history } = entry
      // Within the chain the store holds (a rollback drops what lies above the common ancestor),
      // a block number and a log index name one log.
      if (holds(history, event)) return
      let at = history.length
      while (at > 0 && compareLogs(blockNumberAt(history, at - eventSlots), logIndexAt(history, at - eventSlots), event) > 0) at -= eventSlots
      // toSpliced allocates exactly the new length; a push would leave spare capacity per job.
      const slots: HistorySlot[] = new Array(eventSlots)
      writeEvent(slots, 0, entry, event, wei)
      setHistory(entry, history.toSpliced(at, 0, ...slots))
      if (dispute !== undefined) disputes.add(entry.key, dispute)
    },

    addServiceEvent({ serviceId, event }) {
      const entry = serviceEntries.get(serviceId)
      if (entry === undefined) throw new RangeError(`Service ${serviceId} must be stored before its events.`)
      const { events } = entry
      if (events.some((held) => held.logIndex === event.logIndex && held.blockNumber === event.blockNumber)) return
      let index = events.length
      while (index > 0 && compareEvents(events[index - 1] as ServiceEvent, event) > 0) index -= 1
      entry.events = events.toSpliced(index, 0, event)
      serviceChanged(serviceId)
      servicesByTransaction.add(event.transactionHash, serviceId)
      changed()
    },

    advance(block, creations = sync.creations) {
      sync.cursor = block
      sync.creations = creations
      if (block.hash === undefined) return
      recentBlocks.set(block.number, block.hash)
      for (const number of recentBlocks.keys()) {
        if (recentBlocks.size <= recentBlockLimit) break
        recentBlocks.delete(number)
      }
    },

    headSeen(headBlock) {
      sync.headBlock = headBlock
    },

    polled({ headBlock, at }) {
      sync.headBlock = headBlock
      sync.lastPollAt = at
      sync.backfilledAt ??= at
      sync.lastError = undefined
      sync.polls += 1
    },

    nodesStalled(stalls) {
      sync.stalledNodes = stalls
    },

    pollFailed({ code, message }) {
      sync.lastError = { code, message }
      sync.failedPolls += 1
    },

    servingChain(mismatch) {
      // Answers built while the chain was right (kept bodies, ETags) must not outlive the change.
      if ((mismatch === undefined) !== (sync.chainMismatch === undefined)) changed()
      sync.chainMismatch = mismatch
    },

    selfChecked(status) {
      sync.selfCheck = { ...sync.selfCheck, ...status }
    },

    replaceJob({ jobId, job, events }) {
      store.putJob({ jobId, job })
      const entry = findJob(jobs, jobKey(jobId)) as JobEntry
      setHistory(entry, noHistory)
      for (const event of events) store.addJobEvent({ jobId, ...event })
    },

    followingNewHeads(state) {
      sync.newHeads = state
    },

    headAnnounced(at) {
      sync.lastHeadAt = at
    },

    rollback(ancestor) {
      const ancestorNumber = ancestor.number.toString()
      const isAbove = ({ blockNumber }: { blockNumber: string }): boolean => compareUintText(blockNumber, ancestorNumber) > 0
      for (const [serviceId, entry] of serviceEntries) {
        if (entry.registeredBlock > ancestor.number) deleteService(serviceId, entry)
        else if (entry.lastBlock > ancestor.number) {
          entry.lastBlock = ancestor.number
          setServiceEvents(serviceId, entry, entry.events.filter((event) => !isAbove(event)))
          staleServiceIds.add(serviceId)
          changed()
        }
      }
      // Backwards, so that deleting a job leaves the ones still to visit in place.
      for (let index = jobs.length - 1; index >= 0; index -= 1) {
        const entry = jobs[index] as JobEntry
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
          deleteJob(jobId, entry)
          continue
        }
        let firstAbove = 0
        while (!isAboveAt(firstAbove)) firstAbove += eventSlots
        setHistory(entry, history.slice(0, firstAbove))
        staleJobIds.add(jobId)
      }
      for (const number of recentBlocks.keys()) if (number > ancestor.number) recentBlocks.delete(number)
      sync.cursor = ancestor
      const { first, checkedAt } = sync.creations
      sync.creations = {
        first,
        next: { service: nextAfter(lastRegisteredServiceId()) ?? first.service, job: nextAfter(lastCreatedJobId()) ?? first.job },
        checkedAt: checkedAt === undefined || checkedAt <= ancestor.number ? checkedAt : ancestor.number,
      }
    },

    takeChanges() {
      const changes = { serviceIds: [...changedServiceIds], jobIds: [...changedJobIds] }
      changedServiceIds = new Set()
      changedJobIds = new Set()
      return changes
    },

    serviceSnapshot(serviceId) {
      const entry = serviceEntries.get(serviceId)
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
      const entry = findJob(jobs, jobKey(jobId))
      if (entry === undefined) return undefined
      const { history } = entry
      const disputeEvents = disputes.get(entry.key)
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
        staleServiceIds: [...staleServiceIds],
        staleJobIds: [...staleJobIds],
      }
    },

    restoreService(serviceId, snapshot) {
      restoring(() => {
        const held = serviceEntries.get(serviceId)
        if (held !== undefined) deleteService(serviceId, held)
        if (snapshot === undefined) return
        store.putService({ serviceId, service: snapshot.service, block: snapshot.lastBlock, registeredBlock: snapshot.registeredBlock })
        for (const event of snapshot.events) store.addServiceEvent({ serviceId, event })
      })
    },

    restoreJob(jobId, snapshot) {
      restoring(() => {
        if (snapshot === undefined) {
          const held = findJob(jobs, jobKey(jobId))
          if (held !== undefined) deleteJob(jobId, held)
          return
        }
        store.putJob({ jobId, job: snapshot.job })
        const entry = findJob(jobs, jobKey(jobId)) as JobEntry
        // A snapshot's events are a history this store wrote, oldest first and each log once: packed
        // in one pass (a load puts back every job at once), not inserted one by one as logs arrive.
        const history: HistorySlot[] = new Array(snapshot.events.length * eventSlots)
        snapshot.events.forEach(({ event, settledWei }, index) => writeEvent(history, index * eventSlots, entry, event, settledWei))
        setHistory(entry, history)
        for (const { dispute } of snapshot.events) if (dispute !== undefined) disputes.add(entry.key, dispute)
      })
    },

    restoreSync({ recentBlocks: blocks, staleServiceIds: staleServices, staleJobIds: staleJobs, ...standing }) {
      Object.assign(sync, standing)
      recentBlocks.clear()
      for (const { number, hash } of blocks) recentBlocks.set(number, hash)
      staleServiceIds.clear()
      for (const serviceId of staleServices) staleServiceIds.add(serviceId)
      staleJobIds.clear()
      for (const jobId of staleJobs) staleJobIds.add(jobId)
      changed()
    },

    followedWriter(standing) {
      sync.replica = standing
    },

    clear() {
      for (const [serviceId, entry] of serviceEntries) deleteService(serviceId, entry)
      for (let index = jobs.length - 1; index >= 0; index -= 1) {
        const entry = jobs[index] as JobEntry
        deleteJob(BigInt(entry.job.jobId), entry)
      }
      sellers.clear()
      jobsBySeller.clear()
      jobsByBuyer.clear()
      jobsByService.clear()
      jobsByState.clear()
      jobsByTransaction.clear()
      servicesByTransaction.clear()
      recentBlocks.clear()
      sync.cursor = undefined
      const { first } = sync.creations
      sync.creations = { first, next: { ...first }, checkedAt: undefined }
    },
  }
  return store
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function compareEvents(a: ServiceEvent, b: ServiceEvent): number {
  return compareLogs(a.blockNumber, a.logIndex, b)
}

function compareLogs(blockNumber: string, logIndex: number, b: { blockNumber: string; logIndex: number }): number {
  return compareUintText(blockNumber, b.blockNumber) || logIndex - b.logIndex
}

/** Ids almost always arrive in order, so the common case is a push. */
function insertSorted(ids: bigint[], id: bigint): void {
  const last = ids.at(-1)
  if (last === undefined || last < id) {
    ids.push(id)
    return
  }
  const index = lowerBound(ids, id)
  if (ids[index] !== id) ids.splice(index, 0, id)
}

/**
 * The entry with this key. The escrow hands ids out one by one, so a store holds a run of them
 * without gaps (maybe after a few older ones touched later): counted back from the newest entry,
 * or on from the oldest, the position is then exact. Otherwise, a binary search.
 */
function nextAfter(id: bigint | undefined): bigint | undefined {
  return id === undefined ? undefined : id + 1n
}

function findJob(entries: readonly JobEntry[], key: JobKey): JobEntry | undefined {
  const newest = entries.at(-1)
  if (newest === undefined) return undefined
  // The newest key is the largest: when it is a number, every key is.
  if (typeof key === 'number' && typeof newest.key === 'number') {
    const fromNewest = entries[entries.length - 1 - (newest.key - key)]
    if (fromNewest?.key === key) return fromNewest
    const fromOldest = entries[key - ((entries[0] as JobEntry).key as number)]
    if (fromOldest?.key === key) return fromOldest
  }
  const found = entries[lowerBoundById(entries, key)]
  return found?.key === key ? found : undefined
}

function removeSorted(ids: bigint[], id: bigint): void {
  const index = lowerBound(ids, id)
  if (ids[index] === id) ids.splice(index, 1)
}

function lowerBound(ids: readonly bigint[], id: bigint): number {
  let low = 0
  let high = ids.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((ids[middle] as bigint) < id) low = middle + 1
    else high = middle
  }
  return low
}
