import type { Hash } from 'viem'
import type { Health } from '../../contract/health.ts'
import type { Job, JobEvent } from '../../contract/job.ts'
import type { Service } from '../../contract/service.ts'
import type { ServiceEvent } from '../../contract/serviceEvent.ts'
import type { ChainIdMismatchError } from '../../errors/chain.ts'
import type { DisputeEvent } from '../../contract/disputeEvent.ts'
import type { TeeEvidence, TeeVerdict } from '../../contract/tee.ts'
import type { NodeStall } from '../../chain/rpc/createNodeStallWatch.ts'
import type { BlockRef, CreationCount, Cursor, ReplicaStanding, SelfCheckStatus, StoreSync } from './StoreReader.ts'

/** What the indexer applies windows, rollbacks and repairs through (and what it reads back to do so). */
export type StoreWriter = RecordWriter &
  SyncWriter &
  TeeVerdictWriter &
  StoreSnapshots & {
    /**
     * Undoes every block above `ancestor`, which becomes the cursor; the creation count goes back
     * with it (the next ids follow from the creations still held).
     */
    rollback(ancestor: BlockRef): void
    /** Forgets everything (the first ids, a fact of the chain before the indexed range, stay known). */
    clear(): void
  }

/** The records' side of the writer: services and jobs, their events, and which ones a rollback left stale. */
export type RecordWriter = {
  /** Ids whose records a rollback left possibly stale: the next window reads them again. */
  readonly staleServiceIds: ReadonlySet<bigint>
  readonly staleJobIds: ReadonlySet<bigint>
  putService(parameters: PutServiceParameters): void
  putJob(parameters: PutJobParameters): void
  /** Adds an event to a stored service; a log already applied (same block and log index) changes nothing. */
  addServiceEvent(parameters: AddServiceEventParameters): void
  /** Adds an event to a stored job; a log already applied (same block and log index) changes nothing. */
  addJobEvent(parameters: AddJobEventParameters): void
  /**
   * Replaces a job's record and its whole history with what was just read from the chain (a
   * repair): the counters follow. Events are given oldest first.
   */
  replaceJob(parameters: ReplaceJobParameters): void
}

/** Where indexing stands (the health reader's `sync`), as the indexer and a replica record it. */
/** What the TEE checker writes: a service's verdict replaces the last one, whole. */
export type TeeVerdictWriter = {
  putTeeVerdict(parameters: { serviceId: bigint; verdict: TeeVerdict; evidence: TeeEvidence | undefined }): void
}

export type SyncWriter = {
  /** Recently applied blocks (number → hash), oldest first, for reorg detection. */
  readonly recentBlocks: ReadonlyMap<bigint, Hash>
  /**
   * Marks `block` fully applied: it becomes the cursor and, with its hash, is remembered for reorg
   * checks. `creations` is what its window counted (default: as before).
   */
  advance(block: Cursor, creations?: CreationCount): void
  /** Records the chain head a poll just read, before it reads up to it: a long back-fill shows its lag. */
  headSeen(headBlock: bigint): void
  /** Records a completed poll; the first one also marks the initial back-fill done. */
  polled(parameters: { headBlock: bigint; at: number }): void
  /** Records how the new-heads subscription stands, for the health reader. */
  followingNewHeads(state: Health['newHeads']): void
  /** Records that the new-heads subscription announced a head. */
  headAnnounced(at: number): void
  /** Records whether the node serves the configured chain (undefined) or another one. */
  servingChain(mismatch: ChainIdMismatchError | undefined): void
  /** Records which nodes hold a request unanswered now, for the health reader. */
  nodesStalled(stalls: readonly NodeStall[]): void
  /** Records a failed poll and why. */
  pollFailed(error: { code: string; message: string }): void
  /** Records where the self-check stands. */
  selfChecked(status: Partial<SelfCheckStatus>): void
  /** Records where a read-only replica stands against its writer. */
  followedWriter(standing: ReplicaStanding): void
}

/** What the durable store writes after each window and puts back on a load or a replica's catch-up (server/durable). */
export type StoreSnapshots = {
  /**
   * The ids of the records changed (written, rolled back or removed) since the last call, which
   * starts a new set; only a store created with `trackChanges` keeps them. The durable store
   * writes those records after each window.
   */
  takeChanges(): StoreChanges
  serviceSnapshot(serviceId: bigint): ServiceSnapshot | undefined
  jobSnapshot(jobId: bigint): JobSnapshot | undefined
  syncSnapshot(): SyncSnapshot
  /**
   * Puts a service back as it was kept (undefined: it is gone), replacing what the store holds of
   * it; not a change to write back (`takeChanges`), since it is what the database holds.
   */
  restoreService(serviceId: bigint, snapshot: ServiceSnapshot | undefined): void
  /** Puts a job back as it was kept, as restoreService does a service. */
  restoreJob(jobId: bigint, snapshot: JobSnapshot | undefined): void
  /** Takes where indexing stands from what was kept (a restart) or what the writer wrote (a replica). */
  restoreSync(snapshot: SyncSnapshot): void
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
  /** The same log with its arguments, when it is one of the dispute's events (toDisputeEvent). */
  dispute?: DisputeEvent | undefined
}
/**
 * A service as the durable store keeps it: enough to rebuild it exactly after a restart or on a
 * replica. `registeredBlock`/`lastBlock` are undefined for a service registered or last touched
 * before the indexed range (no rollback can remove those).
 */
export type ServiceSnapshot = {
  service: Service
  events: readonly ServiceEvent[]
  registeredBlock: bigint | undefined
  lastBlock: bigint | undefined
}

/** A job as the durable store keeps it: its record and its history, each event with the wei it settled. */
export type JobSnapshot = {
  job: Job
  events: readonly Omit<AddJobEventParameters, 'jobId'>[]
}

/**
 * Where indexing stands, as the durable store keeps it: what a restart resumes from (cursor,
 * creation count, recent hashes for the reorg check, records a rollback left to read again) and
 * what a replica mirrors for its health answers.
 */
export type SyncSnapshot = Pick<
  StoreSync,
  'cursor' | 'creations' | 'headBlock' | 'backfilledAt' | 'lastPollAt' | 'polls' | 'failedPolls' | 'lastError' | 'selfCheck' | 'newHeads' | 'lastHeadAt'
> & {
  recentBlocks: readonly BlockRef[]
  staleServiceIds: readonly bigint[]
  staleJobIds: readonly bigint[]
}

/** The ids of the records changed since the changes were last taken (see `takeChanges`). */
export type StoreChanges = {
  serviceIds: readonly bigint[]
  jobIds: readonly bigint[]
}
