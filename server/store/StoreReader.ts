import type { Hash } from 'viem'
import type { NodeStall } from '../../chain/rpc/createNodeStallWatch.ts'
import type { Health } from '../../contract/health.ts'
import type { Job, JobEvent } from '../../contract/job.ts'
import type { Service } from '../../contract/service.ts'
import type { ServiceEvent } from '../../contract/serviceEvent.ts'
import type { ChainIdMismatchError } from '../../errors/chain.ts'
import type { DisputeEvent } from '../../contract/disputeEvent.ts'
import type { TeeEvidence, TeeVerdict } from '../../contract/tee.ts'

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

/** Totals derived from the applied events (never from a job's current state): the health record's counters, the wei total still a bigint. */
export type StoreCounters = Omit<Health['counters'], 'totalSettledWei'> & { totalSettledWei: bigint }

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
  /** Chain head as a poll last read it (at its start: a back-fill's target before it is reached). */
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
  /** The nodes that hold a request unanswered now, as the indexer's transport reports them (not kept in a durable store). */
  stalledNodes: readonly NodeStall[]
  /** Why the last poll failed; undefined once one succeeds. */
  lastError: { code: string; message: string } | undefined
  /** Polls that completed, and polls that failed (each is retried). */
  polls: number
  failedPolls: number
  selfCheck: SelfCheckStatus
  /** On a read-only replica: how it follows the writer (see followDurableStore); undefined elsewhere. */
  replica: ReplicaStanding | undefined
}

/** Where a read-only replica stands against the writer whose commits it applies. */
export type ReplicaStanding = {
  /** The writer's last commit applied here. */
  revision: bigint
  /** From the writer's commit of that revision to its being served here, in ms. */
  behindWriterMs: number
  /** When the replica last asked the database for new commits (epoch ms). */
  checkedAt: number
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


/** What HTTP, MCP and the explorer read: records ready to serve, their indexes, counters and where indexing stands. */
export type StoreReader = {
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
  /** The job's dispute events with their arguments, oldest first (empty when never disputed); undefined when the job is unknown. */
  jobDispute(jobId: bigint): readonly DisputeEvent[] | undefined
  /** Every job, ascending by id; readers walk it from the end for newest first. */
  readonly jobList: readonly StoredJob[]
  /** Every job id, ascending, built on each read (for tests and tools; readers walk `jobList`). */
  readonly jobIds: bigint[]
  readonly counters: Readonly<StoreCounters>
  readonly sync: Readonly<StoreSync>
  /** Records a rollback left as the given-up branch had them, until the next window reads them again. */
  readonly staleServiceIds: ReadonlySet<bigint>
  readonly staleJobIds: ReadonlySet<bigint>
  /** The hashes of the last blocks applied (number → hash), oldest first: the branch the store stands on. */
  readonly recentBlocks: ReadonlyMap<bigint, Hash>
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
  /** The service's last TEE verdict; undefined until it was first checked. */
  teeVerdict(serviceId: bigint): TeeVerdict | undefined
  /** The evidence behind that verdict; undefined when none was fetched. */
  teeEvidence(serviceId: bigint): TeeEvidence | undefined
  /** Every verdict, ascending by serviceId; the same array until one changes. */
  teeVerdictList(): readonly TeeVerdict[]
  /**
   * Calls `listener` each time a batch of changes is whole: a window's slice applied (with the
   * re-read after a rollback), a poll's repairs, a replica's catch-up or a load. Returns the
   * function that stops it.
   */
  watchBatches(listener: (batch: StoreBatch) => void): () => void
}

/** The records a batch changed (written, rolled back or removed), each id once. */
export type StoreBatch = {
  serviceIds: readonly bigint[]
  jobIds: readonly bigint[]
}
