import type { Client } from 'viem'
import type { IndexedDeployment } from '../../config/deployment.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import type { StoreWriter } from '../store/StoreWriter.ts'
import { createPoll, type CreatePollParameters } from './createPoll.ts'
import { createPollLoop, type CreatePollLoopParameters } from './createPollLoop.ts'
import { createScanWindow, type ScanWindow } from './createScanWindow.ts'
import { createSelfCheck, type SelfCheckRepair } from './createSelfCheck.ts'
import { describeFailure } from './describeFailure.ts'
import type { FollowHeadsChange } from './followHeads.ts'

export type CreateIndexerParameters = {
  /** The registry, the escrow and the arbiter (whose DisputeOpened, DisputeFailed and Slashed join the job's history). */
  deployment: IndexedDeployment
  /**
   * First block to index (the deployment block), or the deployment's unix time: then the first
   * block at or after it is looked up by binary search during the first poll.
   */
  startBlock: CreatePollParameters['startBlock']
  /**
   * The chain the node must serve; checked at every poll. While the node serves another, nothing
   * is read from it and the readers serve nothing (ChainIdMismatchError); it resumes by itself.
   */
  chainId: number
  /** Pause between polls once caught up (default 3,000 ms). */
  pollIntervalMs?: number
  /** Largest `eth_getLogs` window in blocks (default 9,000; `--log-range`); shrinks when the node refuses it. */
  maxWindow?: bigint | undefined
  /** The node named the widest `eth_getLogs` range it accepts (once per limit learned); defaults to one line on stderr. */
  onLogRangeLimit?: ((blocks: bigint) => void) | undefined
  /** First retry delay after a failed poll, doubled per failure up to `maxRetryDelayMs`. */
  retryDelayMs?: number
  maxRetryDelayMs?: number
  /**
   * A poll none of whose requests settled for this long is abandoned (its requests fail with
   * PollStalledError) and retried (default 30,000 ms; startIndexer: the request deadline times the
   * nodes, plus one).
   */
  pollStallMs?: number
  /** How much longer the nodes asked to be left alone: the poll's watchdog waits that out (see createPollWatchdog). */
  pollHeldForMs?: () => number
  /** Every failed poll (it is retried); defaults to one line on stderr. */
  onError?: CreatePollLoopParameters['onError']
  /**
   * Follow new heads over this WebSocket (`eth_subscribe`): each head starts a poll at once, and
   * the interval poll stays as a safety net. Reads stay on `client`.
   */
  newHeads?: CreatePollLoopParameters['newHeads']
  /** Every change of the new-heads subscription; defaults to one line on stderr. */
  onNewHeadsChange?: CreatePollLoopParameters['onNewHeadsChange']
  /**
   * A poll reading at most this many new blocks checks each block's logsBloom against its answer
   * (default 100, one batch of headers: following the head and catching up after an outage; a
   * back-fill relies on the creation counts, the histories of the jobs it read, and the self-check).
   */
  bloomCheckBlocks?: bigint
  /** Jobs and services the self-check compares with the chain per poll (0 turns it off; see createSelfCheck). */
  selfCheckJobs?: number
  selfCheckServices?: number
  /** Every repair the self-check made; defaults to one line on stderr. */
  onRepair?: (repair: SelfCheckRepair) => void
  /** Shortest time between two self-check rounds (default: the poll interval, at least 3,000 ms). */
  selfCheckIntervalMs?: number
  now?: () => number
  /** Every successful poll, with the head it read up to (for metrics). */
  onPoll?: CreatePollParameters['onPoll']
  /** The store to index into, made by the caller: one loaded from a durable store resumes from its cursor. */
  store: StoreReader & StoreWriter
  /** Awaited at each applied window and at the end of each poll, where the store is whole: the durable store's commit. */
  commit?: CreatePollParameters['commit']
  /** Every reorg found: `depth` blocks above the common ancestor were undone (all of them when none is remembered). */
  onReorg?: CreatePollParameters['onReorg']
}

export type Indexer = {
  store: StoreReader & StoreWriter
  /** The `eth_getLogs` window: its size now, and the node's limit once learned. */
  logWindow: Pick<ScanWindow, 'size' | 'limit'>
  /**
   * Starts polling and following new heads (once; later calls return the same promise). Resolves
   * when the initial back-fill has reached the chain head; polling goes on until `stop`.
   */
  start(): Promise<void>
  /** Stops polling and following, and waits for a poll in flight to finish. */
  stop(): Promise<void>
}

/**
 * Follows the registry, the escrow and the arbiter's dispute events into the store: back-fills
 * from `startBlock` to the head in adaptive windows, then polls (createPoll), after each new head
 * or at the poll interval (createPollLoop). Failures are retried with capped exponential backoff
 * and never skip a block: the cursor moves only past fully applied windows, and a window is
 * applied only when known complete (see readWindow). After each scan, jobs whose history does not
 * fit their record and a few more records in turn are compared with the chain (createSelfCheck).
 */
export function createIndexer(
  client: Client,
  {
    deployment,
    startBlock,
    chainId,
    pollIntervalMs = 3_000,
    maxWindow = 9_000n,
    onLogRangeLimit = logLogRangeLimit,
    retryDelayMs = 250,
    maxRetryDelayMs = 10_000,
    pollStallMs = 30_000,
    pollHeldForMs,
    onError = logError,
    newHeads,
    onNewHeadsChange = logNewHeadsChange,
    bloomCheckBlocks = 100n,
    selfCheckJobs = 24,
    selfCheckServices = 20,
    onRepair,
    selfCheckIntervalMs = Math.max(pollIntervalMs, 3_000),
    now = Date.now,
    onPoll,
    onReorg,
    store,
    commit,
  }: CreateIndexerParameters,
): Indexer {
  const window = createScanWindow({ max: maxWindow, onLimit: onLogRangeLimit })
  const selfCheck =
    selfCheckJobs + selfCheckServices > 0
      ? createSelfCheck({ store, deployment, window, jobsPerRun: selfCheckJobs, servicesPerRun: selfCheckServices, onRepair, intervalMs: selfCheckIntervalMs, now })
      : undefined
  const poll = createPoll({ store, deployment, startBlock, chainId, window, bloomCheckBlocks, selfCheck, commit, now, onPoll, onReorg })
  const loop = createPollLoop(client, { store, poll, pollIntervalMs, retryDelayMs, maxRetryDelayMs, pollStallMs, pollHeldForMs, onError, newHeads, onNewHeadsChange, now })
  return {
    store,
    logWindow: { size: window.size, limit: window.limit },
    start: loop.start,
    stop: loop.stop,
  }
}

function logError(error: unknown): void {
  console.error(`indexer: poll failed, retrying: ${describeFailure(error).message}`)
}

function logLogRangeLimit(blocks: bigint): void {
  console.error(`indexer: the node accepts eth_getLogs over at most ${blocks} blocks; windows are that wide from now on`)
}

function logNewHeadsChange(change: FollowHeadsChange): void {
  if (change.state === 'subscribed') console.error(`indexer: following new heads at ${change.endpoint}`)
  else console.error(`indexer: ${change.error.message} Polling meanwhile; reconnecting in ${change.retryInMs} ms.`)
}
