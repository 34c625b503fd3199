import type { StoreReader } from '../store/StoreReader.ts'

/** A poll older than this many intervals means the indexer is stuck or the node unreachable. */
export const stalePollIntervals = 3

/** How far the initial back-fill is, from its first block to the head. */
export type BackfillProgress = {
  blocksDone: number
  blocksTotal: number
  /** blocksDone of blocksTotal, from 0 to 1 (1 with nothing to read). */
  ratio: number
  /** The same share in percent, to a tenth. */
  percent: number
  /** Blocks indexed per second since the back-fill started, to a tenth. */
  blocksPerSecond: number
  /** Seconds left at the average rate so far; undefined before any block is done. */
  etaSeconds: number | undefined
}

/** Where indexing stands against the chain: what /healthz, /readyz, /metrics and the back-fill's progress lines report. */
export type SyncProgress = {
  /** Last block whose logs are all applied; undefined before the first window. */
  cursorBlock: bigint | undefined
  /** The chain head as last read; undefined before the first poll read it. */
  headBlock: bigint | undefined
  /**
   * Head minus cursor (0 once the cursor reached it); before the first window, head minus the block
   * before the first one. Undefined while either end is unknown.
   */
  lagBlocks: number | undefined
  /** Seconds since the store last held everything up to the head: the last successful poll, or the start before any. */
  lagSeconds: number
  /** When the initial back-fill reached the head; undefined while it goes on. */
  backfilledAt: number | undefined
  /** Since the last successful poll, in ms; undefined before the first. */
  lastPollAgeMs: number | undefined
  /** Whether the last successful poll is at most `stalePollIntervals` poll intervals old. */
  polledLately: boolean
  /** Undefined while the first block or the head is unknown. */
  backfill: BackfillProgress | undefined
}

export type ReadSyncProgressParameters = {
  /** Epoch milliseconds; defaults to the current time. */
  now?: number | undefined
  /** The first block the back-fill reads, when known: the store does not keep it. */
  firstBlock?: bigint | undefined
  /**
   * A head learned outside the store, the higher of the two counting: the RPC observer also sees the
   * heads a long scan asks for again and goes on to, which the store learns only when the poll ends.
   */
  latestHead?: bigint | undefined
  /** When the back-fill measured started (epoch ms), for its rate; defaults to the store's start. */
  backfillStartedAt?: number | undefined
}

/** Where indexing stands, from the store's sync state at `now`: the one measure every report of it shows. */
export function readSyncProgress(
  store: StoreReader,
  { now = Date.now(), firstBlock, latestHead, backfillStartedAt = store.sync.startedAt }: ReadSyncProgressParameters = {},
): SyncProgress {
  const { sync } = store
  const cursorBlock = sync.cursor?.number
  const headBlock = sync.headBlock === undefined || (latestHead !== undefined && latestHead > sync.headBlock) ? latestHead : sync.headBlock
  const standing = cursorBlock ?? (firstBlock === undefined ? undefined : firstBlock - 1n)
  const lastPollAgeMs = sync.lastPollAt === undefined ? undefined : now - sync.lastPollAt
  return {
    cursorBlock,
    headBlock,
    lagBlocks: headBlock === undefined || standing === undefined ? undefined : Number(headBlock > standing ? headBlock - standing : 0n),
    lagSeconds: Math.max(0, (now - (sync.lastPollAt ?? sync.startedAt)) / 1000),
    backfilledAt: sync.backfilledAt,
    lastPollAgeMs,
    polledLately: lastPollAgeMs !== undefined && lastPollAgeMs <= stalePollIntervals * sync.pollIntervalMs,
    backfill:
      firstBlock === undefined || headBlock === undefined
        ? undefined
        : measureBackfill({ firstBlock, headBlock, cursorBlock, seconds: Math.max(0.001, (now - backfillStartedAt) / 1000) }),
  }
}

function measureBackfill({ firstBlock, headBlock, cursorBlock, seconds }: { firstBlock: bigint; headBlock: bigint; cursorBlock: bigint | undefined; seconds: number }): BackfillProgress {
  const total = headBlock >= firstBlock ? Number(headBlock - firstBlock + 1n) : 0
  const done = cursorBlock === undefined ? 0 : Math.min(total, Number(cursorBlock - firstBlock + 1n))
  const blocksPerSecond = done / seconds
  return {
    blocksDone: done,
    blocksTotal: total,
    ratio: total === 0 ? 1 : done / total,
    percent: total === 0 ? 100 : Math.round((done / total) * 1000) / 10,
    blocksPerSecond: Math.round(blocksPerSecond * 10) / 10,
    etaSeconds: done === 0 ? undefined : Math.round((total - done) / blocksPerSecond),
  }
}
