import { BlockNotFoundError, type Address, type Client } from 'viem'
import { getBlock, getChainId } from 'viem/actions'
import { findBlockByTimestamp } from '../../chain/read/findBlockByTimestamp.ts'
import { BaseError } from '../../errors/BaseError.ts'
import { ChainIdMismatchError, RpcDeadlineError } from '../../errors/chain.ts'
import { createStore, type Store } from '../store/createStore.ts'
import { createScanWindow, type ScanWindow } from './createScanWindow.ts'
import { createPollWatchdog } from './createPollWatchdog.ts'
import { createSelfCheck, type SelfCheckRepair } from './createSelfCheck.ts'
import { findCommonAncestor } from './findCommonAncestor.ts'
import { followHeads, type FollowHeadsChange, type FollowHeadsParameters, type HeadFollower } from './followHeads.ts'
import { findSuspects } from './findSuspects.ts'
import { scanRange } from './scanRange.ts'

export type CreateIndexerParameters = {
  registry: Address
  escrow: Address
  /** Its DisputeOpened, DisputeFailed and Slashed join the job's history. */
  arbiter: Address
  /**
   * First block to index (the deployment block), or the deployment's unix time: then the first
   * block at or after it is looked up by binary search during the first poll.
   */
  startBlock: bigint | { timestamp: bigint }
  /**
   * The chain the node must serve; checked at every poll. While the node serves another, nothing
   * is read from it and the readers serve nothing (ChainIdMismatchError); it resumes by itself.
   */
  chainId: number
  /** Configured network name, echoed by the health record. */
  network: string
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
  /** Every failed poll (it is retried); defaults to one line on stderr. */
  onError?: (error: unknown) => void
  /**
   * Follow new heads over this WebSocket (`eth_subscribe`): each head starts a poll at once, and
   * the interval poll stays as a safety net. Reads stay on `client`.
   */
  newHeads?: Omit<FollowHeadsParameters, 'onHead' | 'onChange'> | undefined
  /** Every change of the new-heads subscription; defaults to one line on stderr. */
  onNewHeadsChange?: (change: FollowHeadsChange) => void
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
  onPoll?: ((poll: { headBlock: bigint }) => void) | undefined
  /**
   * The store to index into, when the caller made it: one loaded from a durable store resumes from
   * its cursor (default: a new, empty one).
   */
  store?: Store | undefined
  /** Awaited at each applied window and at the end of each poll, where the store is whole: the durable store's commit. */
  commit?: (() => Promise<void>) | undefined
  /** Every reorg found: `depth` blocks above the common ancestor were undone (all of them when none is remembered). */
  onReorg?: ((reorg: { depth: bigint; ancestor: bigint | undefined }) => void) | undefined
}

export type Indexer = {
  store: Store
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
 * Follows the registry, the escrow and the arbiter's dispute events into an in-memory store: back-fills from `startBlock` to
 * the head in adaptive windows, then polls. Failures are retried with capped exponential backoff
 * and never skip a block: the cursor moves only past fully applied windows, and a window is
 * applied only when known complete (see readWindow). Each poll first checks, in one batch, the
 * node's chain id (another chain: nothing is read, the readers serve nothing until it is back)
 * and that the cursor block still has the hash it was indexed with; if not, it rolls the store
 * back to the common ancestor and indexes the new branch. After the scan, jobs whose history does
 * not fit their record and a few more records in turn are compared with the chain (createSelfCheck).
 *
 * With `newHeads`, a head announced over WebSocket starts a poll at once. Polls never overlap:
 * heads that arrive during one are coalesced into a single poll right after it. A poll reads
 * from its cursor to the head whatever woke it, so a lost or late head costs latency, never a block.
 * A poll whose HTTP node is still behind the announced head (providers balance the two across
 * nodes) is repeated after `retryDelayMs`, doubled while it stays behind, up to the poll interval.
 */
export function createIndexer(
  client: Client,
  {
    registry,
    escrow,
    arbiter,
    startBlock,
    chainId,
    network,
    pollIntervalMs = 3_000,
    maxWindow = 9_000n,
    onLogRangeLimit = logLogRangeLimit,
    retryDelayMs = 250,
    maxRetryDelayMs = 10_000,
    pollStallMs = 30_000,
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
    store = createStore({ pollIntervalMs, chainId, network, now }),
    commit,
  }: CreateIndexerParameters,
): Indexer {
  const window = createScanWindow({ max: maxWindow, onLimit: onLogRangeLimit })
  const selfCheck =
    selfCheckJobs + selfCheckServices > 0
      ? createSelfCheck({ store, registry, escrow, arbiter, window, jobsPerRun: selfCheckJobs, servicesPerRun: selfCheckServices, onRepair, intervalMs: selfCheckIntervalMs, now })
      : undefined
  let firstBlock = typeof startBlock === 'bigint' ? startBlock : undefined
  let firstBlockTimestamp: bigint | undefined
  // Records loaded from a durable store were read by an earlier process, which may have stopped
  // before checking them: the first poll checks them like the jobs a scan reads.
  const jobsRead = new Set<bigint>(store.jobIds)
  let stopped = false
  let failures = 0
  let timer: NodeJS.Timeout | undefined
  let polling = false
  let headWaiting = false
  let announcedHead: bigint | undefined
  let behind = 0
  let inFlight: Promise<void> | undefined
  let started: Promise<void> | undefined
  let follower: HeadFollower | undefined
  let backfilled: () => void = () => undefined

  /** Resolves with the head it read up to; reads through `client`, the poll's watchdog's. */
  const poll = async (client: Client): Promise<bigint> => {
    const cursor = store.sync.cursor
    // One batch: the chain id, the head, and the cursor block as the node has it now (absent if
    // the chain got shorter than the cursor). The chain id is settled first: a node serving
    // another chain fails the other two in its own ways, and must not be read at all. A cursor
    // without a hash lies deeper than any reorg (see scanRange): nothing to compare.
    const [actualChainId, latest, atCursor] = await Promise.allSettled([
      getChainId(client),
      getBlock(client, { blockTag: 'latest' }),
      cursor?.hash === undefined ? undefined : getBlock(client, { blockNumber: cursor.number }).catch(absentBlock),
    ])
    if (actualChainId.status === 'rejected') throw actualChainId.reason
    if (actualChainId.value !== chainId) {
      const mismatch = new ChainIdMismatchError({ expected: chainId, actual: actualChainId.value })
      store.servingChain(mismatch)
      throw mismatch
    }
    store.servingChain(undefined)
    if (latest.status === 'rejected') throw latest.reason
    if (atCursor.status === 'rejected') throw atCursor.reason
    const head = latest.value
    store.headSeen(head.number)
    firstBlock ??= await findBlockByTimestamp(client, { timestamp: (startBlock as { timestamp: bigint }).timestamp })

    if (cursor?.hash !== undefined && atCursor.value?.hash !== cursor.hash) {
      const ancestor = await findCommonAncestor(client, { blocks: store.recentBlocks, headBlock: head.number })
      if (ancestor === undefined) store.clear()
      else store.rollback(ancestor)
      onReorg?.({ depth: cursor.number - (ancestor?.number ?? firstBlock - 1n), ancestor: ancestor?.number })
    }
    const fromBlock = store.sync.cursor === undefined ? firstBlock : store.sync.cursor.number + 1n
    let headBlock = head.number
    if (fromBlock <= head.number) {
      // Read once the first block exists: a start block beyond the head is caught up, not an error.
      firstBlockTimestamp ??= (await getBlock(client, { blockNumber: firstBlock })).timestamp
      const scan = await scanRange(client, {
        store,
        registry,
        escrow,
        arbiter,
        fromBlock,
        toBlock: head.number,
        toBlockHash: head.hash,
        firstBlock: { number: firstBlock, timestamp: firstBlockTimestamp },
        window,
        bloomCheckBlocks,
        jobsRead,
        commit,
        now,
      })
      headBlock = scan.toBlock
    }
    // Every job read since the last check is the chain's at the cursor now, or behind it by events
    // this scan applied: its history must fit it. Jobs read by a scan that failed are checked here
    // too: a later window's failure (creations found missing) may come after theirs was applied.
    const suspects = await findSuspects(store, { jobIds: [...jobsRead] })
    jobsRead.clear()
    // The rolling round starts after the initial back-fill, which read every record it holds just
    // now (its suspects, and any a failed repair left, are checked at once): the back-fill is not
    // held up by a round.
    if (store.sync.backfilledAt !== undefined || suspects.length > 0 || store.sync.selfCheck.unrepaired > 0) {
      await selfCheck?.run(client, { firstBlock, suspects })
    }
    store.polled({ headBlock, at: now() })
    await commit?.()
    onPoll?.({ headBlock })
    return headBlock
  }

  const schedule = (delayMs: number): void => {
    if (!stopped) timer = setTimeout(runPoll, delayMs)
  }

  const runPoll = (): void => {
    clearTimeout(timer)
    polling = true
    headWaiting = false
    const startedAt = now()
    const watchdog = createPollWatchdog(client, { stallMs: pollStallMs })
    inFlight = poll(watchdog.client).finally(watchdog.stop).then(
      (headNumber) => {
        polling = false
        failures = 0
        backfilled()
        if (headWaiting && !stopped) runPoll()
        else if (announcedHead !== undefined && headNumber < announcedHead) {
          behind += 1
          schedule(Math.min(pollIntervalMs, retryDelayMs * 2 ** (behind - 1)))
        } else {
          behind = 0
          schedule(Math.max(0, pollIntervalMs - (now() - startedAt)))
        }
      },
      (error: unknown) => {
        polling = false
        failures += 1
        store.pollFailed(describeFailure(error))
        onError(error)
        schedule(Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (failures - 1)))
      },
    )
  }

  const wake = (): void => {
    if (stopped) return
    if (polling) headWaiting = true
    // After a failed poll, its retry reads up to the new head anyway; polling now would skip the backoff.
    else if (failures === 0) runPoll()
  }

  const onHead = (blockNumber: bigint): void => {
    // The last one, not the highest: after a reorg to a shorter branch the head number goes down.
    announcedHead = blockNumber
    store.headAnnounced(now())
    wake()
  }

  const onNewHeads = (change: FollowHeadsChange): void => {
    store.followingNewHeads(change.state)
    onNewHeadsChange(change)
    // Heads announced while the subscription was down were missed: catch up now, not at the next interval.
    if (change.state === 'subscribed') wake()
  }

  return {
    store,
    logWindow: { size: window.size, limit: window.limit },
    start() {
      started ??= new Promise<void>((resolve) => {
        backfilled = resolve
        if (newHeads !== undefined) {
          store.followingNewHeads('connecting')
          follower = followHeads({ ...newHeads, onHead, onChange: onNewHeads })
        }
        runPoll()
      })
      return started
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      await Promise.all([inFlight, follower?.stop()])
    },
  }
}

function absentBlock(error: unknown): undefined {
  if (error instanceof BlockNotFoundError) return undefined
  throw error
}

/** What health shows of a failed poll: our errors keep their code, the node's are transport failures. */
export function describeFailure(error: unknown): { code: string; message: string } {
  if (error instanceof BaseError) return { code: error.code, message: error.message }
  // It names the node and what it held; viem's wrappers (a batch, an action) only say "took too long".
  for (let link: unknown = error; link instanceof Error; link = link.cause) {
    if (link instanceof RpcDeadlineError) return { code: link.code, message: link.shortMessage }
  }
  const message = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error)
  const details = (error as { details?: unknown }).details
  return { code: 'rpc_failed', message: `${message.split('\n')[0]}${typeof details === 'string' && details !== '' ? ` (${details})` : ''}` }
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
