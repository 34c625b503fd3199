import type { Hash } from 'viem'
import type { ToCountersParameters } from '../../chain/mappers/toCounters.ts'
import type { Health } from '../../contract/health.ts'
import type { Job, JobDetail, JobEvent } from '../../contract/job.ts'
import type { Service } from '../../contract/service.ts'

/** One applied log of a job, with what the store needs to undo it and to count it. */
export type StoredJobEvent = {
  /** `blockHash:logIndex`: the same log applied twice is still one event. */
  key: string
  blockNumber: bigint
  logIndex: number
  /** `paidToSeller + protocolFee` of a JobSettled event, counted into totalSettledWei. */
  settledWei: bigint | undefined
  entry: JobEvent
}

/** A job ready to serve: the list shape and the detail shape, built when the job changes. */
export type StoredJob = {
  job: Job
  detail: JobDetail
  /** The store's `version` when this job last changed: equal versions, equal job. */
  version: number
}

/** Totals derived from the applied events (never from a job's current state). */
export type StoreCounters = ToCountersParameters

export type BlockRef = { number: bigint; hash: Hash }

/** Where indexing stands; read by the health reader. Times are epoch milliseconds. */
export type StoreSync = {
  /** Last block whose logs are all applied; undefined before the first window. */
  cursor: BlockRef | undefined
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
}

export type Store = {
  /**
   * Grows with every change to what readers return (records, events, counters), never repeats
   * within a process: a reader's answer is the same while it stands still.
   */
  readonly version: number
  service(serviceId: bigint): Service | undefined
  job(jobId: bigint): StoredJob | undefined
  /** Every job id, ascending; readers walk it from the end for newest first. */
  readonly jobIds: readonly bigint[]
  readonly counters: Readonly<StoreCounters>
  readonly sync: Readonly<StoreSync>
  /** Every service, ascending by id; the same array until a service changes. */
  serviceList(): readonly Service[]
  sellerServiceIds(seller: string): readonly bigint[]
  sellerJobIds(seller: string): readonly bigint[]

  /** Ids whose records a rollback left possibly stale: the next window reads them again. */
  readonly staleServiceIds: ReadonlySet<bigint>
  readonly staleJobIds: ReadonlySet<bigint>
  /** Recently applied blocks (number → hash), oldest first, for reorg detection. */
  readonly recentBlocks: ReadonlyMap<bigint, Hash>

  putService(parameters: PutServiceParameters): void
  putJob(parameters: PutJobParameters): void
  /** Adds an event to a stored job; a log already applied changes nothing. */
  addJobEvent(jobId: bigint, event: StoredJobEvent): void
  /** Marks `block` fully applied: it becomes the cursor and is remembered for reorg checks. */
  advance(block: BlockRef): void
  /** Records a completed poll; the first one also marks the initial back-fill done. */
  polled(parameters: { headBlock: bigint; at: number }): void
  /** Records how the new-heads subscription stands, for the health reader. */
  followingNewHeads(state: Health['newHeads']): void
  /** Undoes every block above `ancestor`, which becomes the cursor. */
  rollback(ancestor: BlockRef): void
  /** Forgets everything, for a reorg deeper than the remembered blocks. */
  clear(): void
}

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
  job: Job
  /** Block of the latest event that touched the job; absent for a refresh without one. */
  block?: bigint | undefined
  /** Block of JobCreated, when this window holds it. */
  createdBlock?: bigint | undefined
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

type ServiceEntry = { service: Service; registeredBlock: bigint; lastBlock: bigint }
type JobEntry = StoredJob & { createdBlock: bigint; lastBlock: bigint; events: StoredJobEvent[] }
type SellerIndex = { serviceIds: bigint[]; jobIds: bigint[] }

const noIds: readonly bigint[] = []

/**
 * The in-memory read model: contract-shaped records ready to serve, indexes for the readers,
 * counters derived from events, and the cursor. Every mutation is synchronous, so a reader never
 * sees a half-applied window.
 */
export function createStore({
  pollIntervalMs,
  chainId,
  network,
  recentBlockLimit = 64,
  now = Date.now,
}: CreateStoreParameters): Store {
  const serviceEntries = new Map<bigint, ServiceEntry>()
  const jobEntries = new Map<bigint, JobEntry>()
  const jobIds: bigint[] = []
  const sellers = new Map<string, SellerIndex>()
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
      index = { serviceIds: [], jobIds: [] }
      sellers.set(key, index)
    }
    return index
  }

  const count = (entry: JobEntry, sign: 1 | -1): void => {
    const names = new Set(entry.events.map(({ entry: { event } }) => event))
    if (names.has('JobSettled')) counters.settledJobs += sign
    if (names.has('JobExpired')) counters.expiredJobs += sign
    if (names.has('JobSlashed')) counters.slashedJobs += sign
    for (const { settledWei } of entry.events) {
      if (settledWei !== undefined) counters.totalSettledWei += sign === 1 ? settledWei : -settledWei
    }
  }

  const rebuildDetail = (entry: JobEntry): void => {
    entry.detail = { ...entry.job, events: entry.events.map(({ entry: event }) => event) }
    entry.version = changed()
  }

  const deleteService = (serviceId: bigint, entry: ServiceEntry): void => {
    serviceEntries.delete(serviceId)
    staleServiceIds.delete(serviceId)
    removeSorted(sellerIndex(entry.service.seller).serviceIds, serviceId)
    counters.services -= 1
    serviceListCache = undefined
    changed()
  }

  const deleteJob = (jobId: bigint, entry: JobEntry): void => {
    count(entry, -1)
    jobEntries.delete(jobId)
    staleJobIds.delete(jobId)
    removeSorted(jobIds, jobId)
    removeSorted(sellerIndex(entry.job.seller).jobIds, jobId)
    counters.jobs -= 1
    changed()
  }

  const store: Store = {
    get version() {
      return version
    },
    service: (serviceId) => serviceEntries.get(serviceId)?.service,
    job: (jobId) => jobEntries.get(jobId),
    jobIds,
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
    sellerJobIds: (seller) => sellers.get(seller.toLowerCase())?.jobIds ?? noIds,

    putService({ serviceId, service, block, registeredBlock }) {
      const entry = serviceEntries.get(serviceId)
      if (entry === undefined) {
        serviceEntries.set(serviceId, {
          service,
          registeredBlock: registeredBlock ?? beforeRange,
          lastBlock: block ?? beforeRange,
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

    putJob({ jobId, job, block, createdBlock }) {
      const entry = jobEntries.get(jobId)
      if (entry === undefined) {
        const created: JobEntry = {
          job,
          detail: { ...job, events: [] },
          version: changed(),
          createdBlock: createdBlock ?? beforeRange,
          lastBlock: block ?? beforeRange,
          events: [],
        }
        jobEntries.set(jobId, created)
        insertSorted(jobIds, jobId)
        insertSorted(sellerIndex(job.seller).jobIds, jobId)
        counters.jobs += 1
      } else {
        entry.job = job
        if (createdBlock !== undefined) entry.createdBlock = createdBlock
        if (block !== undefined && block > entry.lastBlock) entry.lastBlock = block
        rebuildDetail(entry)
      }
      staleJobIds.delete(jobId)
    },

    addJobEvent(jobId, event) {
      const entry = jobEntries.get(jobId)
      if (entry === undefined) throw new RangeError(`Job ${jobId} must be stored before its events.`)
      if (entry.events.some(({ key }) => key === event.key)) return
      count(entry, -1)
      entry.events.push(event)
      entry.events.sort(compareEvents)
      if (event.blockNumber > entry.lastBlock) entry.lastBlock = event.blockNumber
      count(entry, 1)
      rebuildDetail(entry)
    },

    advance(block) {
      sync.cursor = block
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
    },

    followingNewHeads(state) {
      sync.newHeads = state
    },

    rollback(ancestor) {
      for (const [serviceId, entry] of serviceEntries) {
        if (entry.registeredBlock > ancestor.number) deleteService(serviceId, entry)
        else if (entry.lastBlock > ancestor.number) {
          entry.lastBlock = ancestor.number
          staleServiceIds.add(serviceId)
        }
      }
      for (const [jobId, entry] of jobEntries) {
        if (entry.createdBlock > ancestor.number) {
          deleteJob(jobId, entry)
          continue
        }
        if (entry.lastBlock <= ancestor.number) continue
        count(entry, -1)
        entry.events = entry.events.filter(({ blockNumber }) => blockNumber <= ancestor.number)
        entry.lastBlock = ancestor.number
        count(entry, 1)
        rebuildDetail(entry)
        staleJobIds.add(jobId)
      }
      for (const number of recentBlocks.keys()) if (number > ancestor.number) recentBlocks.delete(number)
      sync.cursor = ancestor
    },

    clear() {
      for (const [serviceId, entry] of serviceEntries) deleteService(serviceId, entry)
      for (const [jobId, entry] of jobEntries) deleteJob(jobId, entry)
      sellers.clear()
      recentBlocks.clear()
      sync.cursor = undefined
    },
  }
  return store
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function compareEvents(a: StoredJobEvent, b: StoredJobEvent): number {
  return compare(a.blockNumber, b.blockNumber) || a.logIndex - b.logIndex
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
