import type { Hash } from 'viem'
import type { ToCountersParameters } from '../../chain/mappers/toCounters.ts'
import type { Health } from '../../contract/health.ts'
import { jobEventNames, type Job, type JobEvent } from '../../contract/job.ts'
import type { Service } from '../../contract/service.ts'
import type { ServiceEvent } from '../../contract/serviceEvent.ts'
import type { ChainIdMismatchError } from '../../errors/chain.ts'
import { compareUintText } from './compareUintText.ts'
import { createTransactionIndex, sameSlot } from './createTransactionIndex.ts'
import { createValuePool } from './createValuePool.ts'
import { createJobIndex } from './createJobIndex.ts'
import { insertById, jobKey, lowerBoundById, removeById, type JobKey } from './jobsById.ts'

/**
 * A job ready to serve. Its record is replaced, never changed, when the job changes, and its event
 * list is built afresh on each read, so an answer already handed out stays as it was.
 */
export type StoredJob = {
  /** The job's record, exactly the Job shape: list answers and MCP's get_job serve it as it is. */
  readonly job: Job
  /** Its on-chain history, oldest first (getJob puts the two together): a new array on each read. */
  readonly events: readonly JobEvent[]
  /** The store's `version` when this job last changed: equal versions, equal job. */
  readonly version: number
}

/** What one transaction touched: the records whose history holds one of its events. */
export type StoredTransactionRecords = {
  readonly jobs: readonly StoredJob[]
  readonly services: readonly { readonly service: Service; readonly events: readonly ServiceEvent[] }[]
}

/** Totals derived from the applied events (never from a job's current state). */
export type StoreCounters = ToCountersParameters

export type BlockRef = { number: bigint; hash: Hash }
/**
 * Where the store stands: a block and, unless it lies deeper than any reorg reaches, its hash (a
 * back-fill window far below the head is applied without reading its last block's header).
 */
export type Cursor = { number: bigint; hash: Hash | undefined }

/** Ids of one kind of record: services and jobs are counted apart. */
export type IdsByKind = { service: bigint | undefined; job: bigint | undefined }

/**
 * What the contracts' id counters say of the applied blocks. Ids are handed out one by one, so
 * counting creation events from the first ids is enough to know each window's are all there; only
 * the end of a scan, a recent block, is checked against the contracts' own next ids.
 */
export type CreationCount = {
  /** The next ids at the cursor; undefined for a kind while `first` is. */
  next: IdsByKind
  /** The next ids before the first indexed block (what was created before is not ours), once known. */
  first: IdsByKind
  /** The last block whose next ids were read from the contracts: every creation up to it is held. */
  checkedAt: bigint | undefined
}

/** Where indexing stands; read by the health reader. Times are epoch milliseconds. */
export type StoreSync = {
  /** Last block whose logs are all applied; undefined before the first window. */
  cursor: Cursor | undefined
  /** Chain head at the last successful poll. */
  headBlock: bigint | undefined
  /** When the initial back-fill reached the head. */
  backfilledAt: number | undefined
  /** When the last poll completed without error. */
  lastPollAt: number | undefined
  startedAt: number
  pollIntervalMs: number
  chainId: number
  network: string
  /** Whether new heads are followed over WebSocket (and whether that subscription is up). */
  newHeads: Health['newHeads']
  /** When the new-heads subscription last announced a head (a live socket can stop delivering). */
  lastHeadAt: number | undefined
  /** The creations counted up to the cursor, so the next window's are counted without reading an old block's state. */
  creations: CreationCount
  /** Set while the node serves another chain than the configured one: the readers serve nothing. */
  chainMismatch: ChainIdMismatchError | undefined
  /** Why the last poll failed; undefined once one succeeds. */
  lastError: { code: string; message: string } | undefined
  /** Polls that completed, and polls that failed (each is retried). */
  polls: number
  failedPolls: number
  selfCheck: SelfCheckStatus
}

/** Where the continuous comparison of the store with the chain stands (see createSelfCheck). */
export type SelfCheckStatus = {
  /** When the last check ran (epoch ms); undefined before the first. */
  lastRunAt: number | undefined
  /** Records the last check compared with the chain. */
  checkedServices: number
  checkedJobs: number
  /** Records the last check found different from the chain. */
  differences: number
  /** Records known to differ from the chain and not repaired yet: while any, health is not ok. */
  unrepaired: number
  /** Records repaired since the start. */
  repairs: number
}

export type Store = {
  /**
   * Grows with every change to what readers return (records, events, counters), never repeats
   * within a process: a reader's answer is the same while it stands still. With `job(id).version`
   * it lets the HTTP layer build ETags without hashing bodies.
   */
  readonly version: number
  service(serviceId: bigint): Service | undefined
  /** The service's registry events, oldest first; undefined when the service is unknown. */
  serviceEvents(serviceId: bigint): readonly ServiceEvent[] | undefined
  job(jobId: bigint): StoredJob | undefined
  /** Every job, ascending by id; readers walk it from the end for newest first. */
  readonly jobList: readonly StoredJob[]
  /** Every job id, ascending, built on each read (for tests and tools; readers walk `jobList`). */
  readonly jobIds: bigint[]
  readonly counters: Readonly<StoreCounters>
  readonly sync: Readonly<StoreSync>
  /** Every service, ascending by id; the same array until a service changes. */
  serviceList(): readonly Service[]
  sellerServiceIds(seller: string): readonly bigint[]
  /** The seller's jobs, ascending by id (address in any case). */
  sellerJobs(seller: string): readonly StoredJob[]
  /** The buyer's jobs, ascending by id (address in any case). */
  buyerJobs(buyer: string): readonly StoredJob[]
  /** The service's jobs, ascending by id. */
  serviceJobs(serviceId: bigint): readonly StoredJob[]
  /** The jobs now in this state (0–6), ascending by id. */
  stateJobs(state: number): readonly StoredJob[]
  /** The jobs and services that hold an event of this transaction (hash in lowercase), by ascending id. */
  transactionRecords(transactionHash: string): StoredTransactionRecords

  /** Ids whose records a rollback left possibly stale: the next window reads them again. */
  readonly staleServiceIds: ReadonlySet<bigint>
  readonly staleJobIds: ReadonlySet<bigint>
  /** Recently applied blocks (number → hash), oldest first, for reorg detection. */
  readonly recentBlocks: ReadonlyMap<bigint, Hash>

  putService(parameters: PutServiceParameters): void
  putJob(parameters: PutJobParameters): void
  /** Adds an event to a stored service; a log already applied (same block and log index) changes nothing. */
  addServiceEvent(parameters: AddServiceEventParameters): void
  /** Adds an event to a stored job; a log already applied (same block and log index) changes nothing. */
  addJobEvent(parameters: AddJobEventParameters): void
  /**
   * Marks `block` fully applied: it becomes the cursor and, with its hash, is remembered for reorg
   * checks. `creations` is what its window counted (default: as before).
   */
  advance(block: Cursor, creations?: CreationCount): void
  /** Records a completed poll; the first one also marks the initial back-fill done. */
  polled(parameters: { headBlock: bigint; at: number }): void
  /** Records how the new-heads subscription stands, for the health reader. */
  followingNewHeads(state: Health['newHeads']): void
  /** Records that the new-heads subscription announced a head. */
  headAnnounced(at: number): void
  /**
   * Undoes every block above `ancestor`, which becomes the cursor; the creation count goes back
   * with it (the next ids follow from the creations still held).
   */
  rollback(ancestor: BlockRef): void
  /** Forgets everything (the first ids, a fact of the chain before the indexed range, stay known). */
  clear(): void
  /** Records whether the node serves the configured chain (undefined) or another one. */
  servingChain(mismatch: ChainIdMismatchError | undefined): void
  /** Records a failed poll and why. */
  pollFailed(error: { code: string; message: string }): void
  /** Records where the self-check stands. */
  selfChecked(status: Partial<SelfCheckStatus>): void
  /**
   * Replaces a job's record and its whole history with what was just read from the chain (a
   * repair): the counters follow. Events are given oldest first.
   */
  replaceJob(parameters: ReplaceJobParameters): void
}

export type ReplaceJobParameters = PutJobParameters & { events: readonly Omit<AddJobEventParameters, 'jobId'>[] }

export type PutServiceParameters = {
  serviceId: bigint
  service: Service
  /** Block of the latest event that touched the service; absent for a refresh without one. */
  block?: bigint | undefined
  /** Block of ServiceRegistered, when this window holds it. */
  registeredBlock?: bigint | undefined
}

export type PutJobParameters = {
  jobId: bigint
  /**
   * The job's record as just read. The store keeps its values (the attestation object too) and
   * may swap strings in them for equal ones it already holds, so the caller hands them over.
   */
  job: Job
}

export type AddServiceEventParameters = {
  serviceId: bigint
  event: ServiceEvent
}

export type AddJobEventParameters = {
  jobId: bigint
  /** Kept as it is (strings may be swapped for equal shared ones), like `PutJobParameters.job`. */
  event: JobEvent
  /** `paidToSeller + protocolFee` of a JobSettled event, counted into totalSettledWei. */
  settledWei?: bigint | undefined
}

export type CreateStoreParameters = {
  pollIntervalMs: number
  chainId: number
  /** Configured network name, e.g. "devnet" or "0g-mainnet". */
  network: string
  /** How many applied blocks are remembered for reorg detection. */
  recentBlockLimit?: number
  now?: () => number
}

/** Registration or creation before the indexed range: no rollback can remove it. */
const beforeRange = -1n

type ServiceEntry = { service: Service; registeredBlock: bigint; lastBlock: bigint; events: readonly ServiceEvent[] }
type SellerIndex = { serviceIds: bigint[] }

/**
 * A job's history packed flat, `eventSlots` slots per event, oldest first: the event's name and log
 * index in one number (see `eventCode`), its block number, transaction hash and block time (the
 * shared strings the JobEvent carries), and the wei of a JobSettled event (undefined for the
 * others). An event object per log would cost ~72 B (header, five fields, its slot in a per-job
 * array) where these slots cost 40; readers get JobEvent objects built on the fly (see `events`).
 */
type History = readonly HistorySlot[]
type HistorySlot = number | string | bigint | undefined
const eventSlots = 5
const noHistory: History = []

/** The name's position in jobEventNames plus the log index times their count: exact below 2^53. */
function eventCode(event: JobEvent): number {
  const nameIndex = jobEventNames.indexOf(event.event)
  if (nameIndex === -1) throw new RangeError(`Job event "${event.event}" is not one of ${jobEventNames.join(', ')}.`)
  return event.logIndex * jobEventNames.length + nameIndex
}

function eventNameAt(history: History, at: number): JobEvent['event'] {
  return jobEventNames[(history[at] as number) % jobEventNames.length] as JobEvent['event']
}

function logIndexAt(history: History, at: number): number {
  return Math.floor((history[at] as number) / jobEventNames.length)
}

function blockNumberAt(history: History, at: number): string {
  return history[at + 1] as string
}

function transactionHashAt(history: History, at: number): string {
  return history[at + 2] as string
}

class JobEntry implements StoredJob {
  job: Job
  history: History
  version: number
  readonly key: JobKey
  constructor(job: Job, version: number, key: JobKey) {
    this.job = job
    this.history = noHistory
    this.version = version
    this.key = key
  }

  /** The served JobEvent objects, keys in toJobEvent's order (MCP's JSON keeps it). */
  get events(): JobEvent[] {
    const { history } = this
    const events: JobEvent[] = new Array(history.length / eventSlots)
    for (let at = 0; at < history.length; at += eventSlots)
      events[at / eventSlots] = {
        event: eventNameAt(history, at),
        blockNumber: blockNumberAt(history, at),
        transactionHash: transactionHashAt(history, at) as JobEvent['transactionHash'],
        logIndex: logIndexAt(history, at),
        timestamp: history[at + 3] as string,
      }
    return events
  }
}

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
 */
export function createStore({
  pollIntervalMs,
  chainId,
  network,
  recentBlockLimit = 64,
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
    lastError: undefined,
    polls: 0,
    failedPolls: 0,
    selfCheck: { lastRunAt: undefined, checkedServices: 0, checkedJobs: 0, differences: 0, unrepaired: 0, repairs: 0 },
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
      const wei = history[at + 4] as bigint | undefined
      if (wei !== undefined) counters.totalSettledWei += sign === 1 ? wei : -wei
    }
    if (settled) counters.settledJobs += sign
    if (expired) counters.expiredJobs += sign
    if (slashed) counters.slashedJobs += sign
  }

  /** Replaces a job's history: the counters and the transaction index follow. */
  const setHistory = (entry: JobEntry, history: History): void => {
    count(entry.history, -1)
    forgetTransactions(entry, history)
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

  const deleteJob = (jobId: bigint, entry: JobEntry): void => {
    count(entry.history, -1)
    forgetTransactions(entry, noHistory)
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
      staleJobIds.delete(jobId)
    },

    addJobEvent({ jobId, event, settledWei: wei }) {
      const entry = findJob(jobs, jobKey(jobId))
      if (entry === undefined) throw new RangeError(`Job ${jobId} must be stored before its events.`)
      const { history } = entry
      const code = eventCode(event)
      // Within the chain the store holds (a rollback drops what lies above the common ancestor),
      // a block number and a log index name one log.
      for (let at = 0; at < history.length; at += eventSlots)
        if (logIndexAt(history, at) === event.logIndex && blockNumberAt(history, at) === event.blockNumber) return
      const transactionHash = poolTransactionHash(event.transactionHash)
      jobsByTransaction.add(transactionHash, entry.key)
      let at = history.length
      while (at > 0 && compareLogs(blockNumberAt(history, at - eventSlots), logIndexAt(history, at - eventSlots), event) > 0) at -= eventSlots
      const settled = event.event === 'JobSettled' && wei !== undefined ? poolWei(wei) : undefined
      // toSpliced allocates exactly the new length; a push would leave spare capacity per job.
      setHistory(entry, history.toSpliced(at, 0, code, poolValue(event.blockNumber), transactionHash, poolValue(event.timestamp), settled))
    },

    addServiceEvent({ serviceId, event }) {
      const entry = serviceEntries.get(serviceId)
      if (entry === undefined) throw new RangeError(`Service ${serviceId} must be stored before its events.`)
      const { events } = entry
      if (events.some((held) => held.logIndex === event.logIndex && held.blockNumber === event.blockNumber)) return
      let index = events.length
      while (index > 0 && compareEvents(events[index - 1] as ServiceEvent, event) > 0) index -= 1
      entry.events = events.toSpliced(index, 0, event)
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

    polled({ headBlock, at }) {
      sync.headBlock = headBlock
      sync.lastPollAt = at
      sync.backfilledAt ??= at
      sync.lastError = undefined
      sync.polls += 1
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
