import type { Client, Hash } from 'viem'
import { getBlock, getBlockNumber } from 'viem/actions'
import { classifyRpcError } from '../../chain/rpc/classifyRpcError.ts'
import { readLogRangeHint } from '../../chain/rpc/readLogRangeHint.ts'
import { LogRangeTooLargeError, MissingCreationsError } from '../../errors/chain.ts'
import type { IndexedDeployment } from '../../config/deployment.ts'
import type { CreationCount, StoreReader } from '../store/StoreReader.ts'
import type { StoreWriter } from '../store/StoreWriter.ts'
import { applyLogs } from './applyLogs.ts'
import type { ScanWindow } from './createScanWindow.ts'
import { readWindow } from './readWindow.ts'

export type ScanRangeParameters = {
  store: StoreReader & StoreWriter
  deployment: IndexedDeployment
  fromBlock: bigint
  /** The head when the scan starts; a scan that outlives `readAtMaxAgeMs` goes on to a newer one. */
  toBlock: bigint
  /** Hash of `toBlock` when known, saving one header read for the last window. */
  toBlockHash?: Hash | undefined
  /** The first indexed block and its time: creations before it are not ours (see readWindow). */
  firstBlock: { number: bigint; timestamp: bigint }
  window: ScanWindow
  /**
   * A scan of at most this many blocks, from `fromBlock` to the head it reads up to (following
   * the head, catching up after a short outage), has every block's logsBloom checked (see
   * readWindow). A longer one, a back-fill, relies on the creation counts, the histories of the jobs
   * it read and the self-check: checking its first, small windows read a header per block, 150
   * reads of deep history behind a rate-limited node.
   */
  bloomCheckBlocks?: bigint | undefined
  /**
   * How long records are read at one block before the scan asks for the head again (default
   * 5,000 ms): a full node keeps the state of its last 128 blocks, a few minutes at most, and a
   * back-fill through a rate-limited node can take hours.
   */
  readAtMaxAgeMs?: number | undefined
  /** Head requests tried, after a window timed out, for the node to answer one before the next window (default 3). */
  idleAttempts?: number | undefined
  /**
   * Every job read is added here as its window is applied, and stays when a later window fails:
   * the caller checks their histories against their records once a scan has gone through.
   */
  jobsRead: Set<bigint>
  /** Called after each window is applied (for progress logs). */
  onWindow?: ((window: { fromBlock: bigint; toBlock: bigint; logs: number }) => void) | undefined
  /** Awaited after each applied window, while the store is whole (the durable store commits it). */
  commit?: (() => Promise<void>) | undefined
  now?: () => number
}

export type ScanRangeReturnType = {
  /** Where the scan ended: `toBlock`, or a later head it went on to. */
  toBlock: bigint
}

/**
 * Windows ending this far below the scan's end lie deeper than any reorg the store could undo
 * (it remembers 64 blocks): their last block's hash is not read, one request less per window.
 */
const reorgDepth = 64n

/** The count before block 0: no contract existed, and ids start at 1. */
const genesisCreations: CreationCount = { next: { service: 1n, job: 1n }, first: { service: 1n, job: 1n }, checkedAt: undefined }

/**
 * Indexes `fromBlock..toBlock` window by window, applying each as soon as it is fully read, so
 * the cursor only ever stands after a complete block (applyLogs). Each window's size comes from `window`
 * (createScanWindow), told how many logs each answer held and how long it took. A window the node
 * refuses as too large, or does not answer in time (its logs or its records), is retried smaller;
 * after a timeout the node may still be computing the answer nobody waits for, so the next window
 * is sent only once it answers a head request (at most `idleAttempts` tried): sent at once, it
 * would queue behind that answer and time out in turn. Any other failure is thrown with the cursor
 * left after the last applied window, so the caller's retry resumes exactly there.
 *
 * Nothing is read at an old block: records are read at the scan's end block, a recent head, and
 * when the scan takes longer than `readAtMaxAgeMs` it asks for the head again and goes on to it,
 * so that every record it read is the chain's at its last block once it is done. Each job is read
 * once per head: a job read for one window already holds what its events in later windows up to
 * that head did. Creations are counted window by window and checked against the contracts' next
 * ids at the end only (countCreations); ids found missing may have been left out of an earlier
 * window's answer, so the store is rolled back to just before the creation of the last id it
 * holds (or the last checked block, if later) and the error thrown: the retry reads from there.
 */
export async function scanRange(
  client: Client,
  {
    store,
    deployment,
    fromBlock,
    toBlock,
    toBlockHash,
    firstBlock,
    window,
    bloomCheckBlocks,
    readAtMaxAgeMs = 5_000,
    idleAttempts = 3,
    jobsRead,
    onWindow,
    commit,
    now = Date.now,
  }: ScanRangeParameters,
): Promise<ScanRangeReturnType> {
  const readJobsAt = new Map<bigint, bigint>()
  let target = toBlock
  let targetHash = toBlockHash
  let targetSince = now()
  let from = fromBlock
  let timedOut = false
  while (from <= target) {
    if (timedOut || now() - targetSince >= readAtMaxAgeMs) {
      const head = await readHead(client, { attempts: timedOut ? idleAttempts : 1 })
      timedOut = false
      targetSince = now()
      if (head > target) {
        target = head
        targetHash = undefined
      }
    }
    const size = window.size()
    const to = from + size - 1n < target ? from + size - 1n : target
    let read
    const readStart = performance.now()
    try {
      read = await readWindow(client, {
        deployment,
        fromBlock: from,
        toBlock: to,
        toBlockHash: to === target ? targetHash : undefined,
        readToBlockHash: to + reorgDepth > target,
        staleServiceIds: store.staleServiceIds,
        staleJobIds: store.staleJobIds,
        readJobsAt,
        readAt: target,
        bloomCheckBlocks: target - fromBlock < (bloomCheckBlocks ?? 0n) ? bloomCheckBlocks : undefined,
        creations: store.sync.cursor === undefined && from === 0n ? genesisCreations : store.sync.creations,
        checkCountAtEnd: to === target,
        firstBlockTimestamp: firstBlock.timestamp,
      })
    } catch (error) {
      const timeout = (error instanceof LogRangeTooLargeError && error.reason === 'timeout') || classifyRpcError(error) === 'timeout'
      const refusal = timeout ? { kind: 'timeout' as const } : readLogRangeHint(error)
      if ((timeout || error instanceof LogRangeTooLargeError) && window.rejected(to - from + 1n, refusal)) {
        timedOut = timeout
        continue
      }
      if (error instanceof MissingCreationsError) await rewindForMissingCreations(client, { store, error, firstBlock: firstBlock.number })
      throw error
    }
    const readMs = performance.now() - readStart
    await applyLogs(store, read)
    await commit?.()
    for (const jobId of read.jobs.keys()) {
      readJobsAt.set(jobId, target)
      jobsRead.add(jobId)
    }
    window.succeeded(to - from + 1n, { logs: read.logs.length, ms: readMs })
    onWindow?.({ fromBlock: from, toBlock: to, logs: read.logs.length })
    from = to + 1n
  }
  return { toBlock: target }
}

/**
 * The head, asked up to `attempts` times while the node does not answer in time: after a window
 * timed out, an answer here means the node is done with it.
 */
async function readHead(client: Client, { attempts }: { attempts: number }): Promise<bigint> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await getBlockNumber(client, { cacheTime: 0 })
    } catch (error) {
      if (attempt >= attempts || classifyRpcError(error) !== 'timeout') throw error
    }
  }
}

/**
 * Rolls the store back to just before the creation of the last id held below the missing ones, or
 * to the last block whose count was checked if that is later (everything up to it is held):
 * the missing creations lie after both. Nothing held below them: back to before the first block.
 */
async function rewindForMissingCreations(
  client: Client,
  { store, error, firstBlock }: { store: StoreReader & StoreWriter; error: MissingCreationsError; firstBlock: bigint },
): Promise<void> {
  const heldId = error.fromId - 1n
  const created =
    error.kind === 'job'
      ? store.job(heldId)?.events.find(({ event }) => event === 'JobCreated')?.blockNumber
      : store.serviceEvents(heldId)?.find(({ event }) => event === 'ServiceRegistered')?.blockNumber
  const { checkedAt } = store.sync.creations
  let to = created === undefined ? firstBlock - 1n : BigInt(created) - 1n
  if (checkedAt !== undefined && checkedAt > to) to = checkedAt
  const cursor = store.sync.cursor
  if (cursor === undefined || to >= cursor.number) return
  if (to < firstBlock) return store.clear()
  const { hash } = await getBlock(client, { blockNumber: to })
  store.rollback({ number: to, hash })
}
