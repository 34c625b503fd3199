import { BlockNotFoundError, type Address, type Client } from 'viem'
import { getBlock, getChainId } from 'viem/actions'
import { findBlockByTimestamp } from '../../chain/read/findBlockByTimestamp.ts'
import { ChainIdMismatchError } from '../../errors/chain.ts'
import { createStore, type Store } from '../store/createStore.ts'
import { createScanWindow } from './createScanWindow.ts'
import { findCommonAncestor } from './findCommonAncestor.ts'
import { followHeads, type FollowHeadsChange, type FollowHeadsParameters, type HeadFollower } from './followHeads.ts'
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
  /** The chain the node must serve; checked before the first scan. */
  chainId: number
  /** Configured network name, echoed by the health record. */
  network: string
  /** Pause between polls once caught up (default 3,000 ms). */
  pollIntervalMs?: number
  /** Largest `eth_getLogs` window in blocks (default 9,000); shrinks when the node refuses it. */
  maxWindow?: bigint
  /** First retry delay after a failed poll, doubled per failure up to `maxRetryDelayMs`. */
  retryDelayMs?: number
  maxRetryDelayMs?: number
  /** Every failed poll (it is retried); defaults to one line on stderr. */
  onError?: (error: unknown) => void
  /**
   * Follow new heads over this WebSocket (`eth_subscribe`): each head starts a poll at once, and
   * the interval poll stays as a safety net. Reads stay on `client`.
   */
  newHeads?: Omit<FollowHeadsParameters, 'onHead' | 'onChange'> | undefined
  /** Every change of the new-heads subscription; defaults to one line on stderr. */
  onNewHeadsChange?: (change: FollowHeadsChange) => void
  now?: () => number
  /** Every successful poll, with the head it read up to (for metrics). */
  onPoll?: ((poll: { headBlock: bigint }) => void) | undefined
  /** Every reorg found: `depth` blocks above the common ancestor were undone (all of them when none is remembered). */
  onReorg?: ((reorg: { depth: bigint; ancestor: bigint | undefined }) => void) | undefined
}

export type Indexer = {
  store: Store
  /**
   * Starts polling and following new heads (once; later calls return the same promise). Resolves
   * when the initial back-fill has reached the chain head; polling goes on until `stop`.
   */
  start(): Promise<void>
  /** Stops polling and following, and waits for a poll in flight to finish. */
  stop(): Promise<void>
}

/**
 * Follows the registry, the escrow and the arbiter's dispute events into an in-memory store:
 * back-fills from `startBlock` to the head in adaptive windows, then polls. Failures are retried
 * with capped exponential backoff and never skip a block: the cursor moves only past fully
 * applied windows. Each poll first checks that the cursor block still has the hash it was
 * indexed with; if not, it rolls the store back to the common ancestor and indexes the new branch.
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
    retryDelayMs = 250,
    maxRetryDelayMs = 10_000,
    onError = logError,
    newHeads,
    onNewHeadsChange = logNewHeadsChange,
    now = Date.now,
    onPoll,
    onReorg,
  }: CreateIndexerParameters,
): Indexer {
  const store = createStore({ pollIntervalMs, chainId, network, now })
  const window = createScanWindow({ max: maxWindow })
  let firstBlock = typeof startBlock === 'bigint' ? startBlock : undefined
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
  let fatal: (error: unknown) => void = () => undefined

  /** Resolves with the head it read up to. */
  const poll = async (): Promise<bigint> => {
    if (firstBlock === undefined || store.sync.lastPollAt === undefined) {
      const actual = await getChainId(client)
      if (actual !== chainId) throw new ChainIdMismatchError({ expected: chainId, actual })
      firstBlock ??= await findBlockByTimestamp(client, { timestamp: (startBlock as { timestamp: bigint }).timestamp })
    }
    const cursor = store.sync.cursor
    // One batch: the head, and the cursor block as the node has it now (absent if the chain got
    // shorter than the cursor).
    const [head, current] = await Promise.all([
      getBlock(client, { blockTag: 'latest' }),
      cursor === undefined ? undefined : getBlock(client, { blockNumber: cursor.number }).catch(absentBlock),
    ])
    if (cursor !== undefined && current?.hash !== cursor.hash) {
      const ancestor = await findCommonAncestor(client, { blocks: store.recentBlocks, headBlock: head.number })
      if (ancestor === undefined) store.clear()
      else store.rollback(ancestor)
      onReorg?.({ depth: cursor.number - (ancestor?.number ?? firstBlock - 1n), ancestor: ancestor?.number })
    }
    const fromBlock = store.sync.cursor === undefined ? firstBlock : store.sync.cursor.number + 1n
    if (fromBlock <= head.number) {
      await scanRange(client, { store, registry, escrow, arbiter, fromBlock, toBlock: head.number, toBlockHash: head.hash, window })
    }
    store.polled({ headBlock: head.number, at: now() })
    onPoll?.({ headBlock: head.number })
    return head.number
  }

  const schedule = (delayMs: number): void => {
    if (!stopped) timer = setTimeout(runPoll, delayMs)
  }

  const runPoll = (): void => {
    clearTimeout(timer)
    polling = true
    headWaiting = false
    const startedAt = now()
    inFlight = poll().then(
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
        if (error instanceof ChainIdMismatchError) {
          stopped = true
          void follower?.stop()
          fatal(error)
          return
        }
        failures += 1
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
    start() {
      started ??= new Promise<void>((resolve, reject) => {
        backfilled = resolve
        fatal = reject
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

function logError(error: unknown): void {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
  console.error(`indexer: poll failed, retrying: ${message}`)
}

function logNewHeadsChange(change: FollowHeadsChange): void {
  if (change.state === 'subscribed') console.error(`indexer: following new heads at ${change.endpoint}`)
  else console.error(`indexer: ${change.error.message} Polling meanwhile; reconnecting in ${change.retryInMs} ms.`)
}
