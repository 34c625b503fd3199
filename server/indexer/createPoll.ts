import { BlockNotFoundError, type Client } from 'viem'
import { getBlock, getChainId } from 'viem/actions'
import { findBlockByTimestamp } from '../../chain/read/findBlockByTimestamp.ts'
import type { IndexedDeployment } from '../../config/deployment.ts'
import { ChainIdMismatchError } from '../../errors/chain.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import type { StoreWriter } from '../store/StoreWriter.ts'
import type { ScanWindow } from './createScanWindow.ts'
import type { SelfCheck } from './createSelfCheck.ts'
import { findCommonAncestor } from './findCommonAncestor.ts'
import { findSuspects } from './findSuspects.ts'
import { scanRange } from './scanRange.ts'

export type CreatePollParameters = {
  store: StoreReader & StoreWriter
  deployment: IndexedDeployment
  /** The deployment block, or the deployment's unix time: the first block at or after it is looked up during the first poll. */
  startBlock: bigint | { timestamp: bigint }
  /** The chain the node must serve: while it serves another, nothing is read from it. */
  chainId: number
  /** The `eth_getLogs` window, shared with the self-check. */
  window: ScanWindow
  /** A poll reading at most this many new blocks checks each block's logsBloom against its answer (see scanRange). */
  bloomCheckBlocks: bigint
  /** Run after each scan; undefined when turned off. */
  selfCheck: SelfCheck | undefined
  /** Awaited at each applied window and at the end of each poll, where the store is whole. */
  commit: (() => Promise<void>) | undefined
  now: () => number
  /** Every successful poll, with the head it read up to. */
  onPoll: ((poll: { headBlock: bigint }) => void) | undefined
  /** Every reorg found: `depth` blocks above the common ancestor were undone (all of them when none is remembered). */
  onReorg: ((reorg: { depth: bigint; ancestor: bigint | undefined }) => void) | undefined
}

/** One poll, reading through `client` (the poll's watchdog's); resolves with the head it read up to. */
export type Poll = (client: Client) => Promise<bigint>

/**
 * One poll of the indexer, from the store's cursor to the head. It first checks, in one batch, the
 * node's chain id (another chain: nothing is read, the readers serve nothing until it is back)
 * and that the cursor block still has the hash it was indexed with; if not, it rolls the store
 * back to the common ancestor and indexes the new branch (scanRange). After the scan, jobs whose
 * history does not fit their record and a few more records in turn are compared with the chain
 * (createSelfCheck).
 */
export function createPoll({
  store,
  deployment,
  startBlock,
  chainId,
  window,
  bloomCheckBlocks,
  selfCheck,
  commit,
  now,
  onPoll,
  onReorg,
}: CreatePollParameters): Poll {
  let firstBlock = typeof startBlock === 'bigint' ? startBlock : undefined
  let firstBlockTimestamp: bigint | undefined
  // Records loaded from a durable store were read by an earlier process, which may have stopped
  // before checking them: the first poll checks them like the jobs a scan reads.
  const jobsRead = new Set<bigint>(store.jobIds)

  return async (client) => {
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
        deployment,
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
}

function absentBlock(error: unknown): undefined {
  if (error instanceof BlockNotFoundError) return undefined
  throw error
}
