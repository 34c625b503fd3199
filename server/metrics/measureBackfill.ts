import type { StoreReader } from '../store/StoreReader.ts'

export type BackfillProgress = {
  blocksDone: number
  blocksTotal: number
  percent: number
  blocksPerSecond: number
  jobs: number
  /** Seconds left at the average rate so far; undefined before any block is done. */
  etaSeconds: number | undefined
}

export type MeasureBackfillParameters = {
  store: StoreReader
  /** Where the back-fill started and where it goes, as far as known yet (see createRpcObserver). */
  firstBlock: () => bigint | undefined
  headBlock: () => bigint | undefined
  /** When the back-fill started (epoch ms). */
  startedAt: number
  now?: () => number
}

/**
 * How far the initial back-fill is, measured from the store's cursor and the head: what the
 * progress log lines and the back-fill gauges of /metrics both show. Undefined while the first
 * block or the head is not known yet.
 */
export function measureBackfill({ store, firstBlock, headBlock, startedAt, now = Date.now }: MeasureBackfillParameters): BackfillProgress | undefined {
  const first = firstBlock()
  const head = store.sync.headBlock ?? headBlock()
  if (first === undefined || head === undefined) return undefined
  const total = head >= first ? Number(head - first + 1n) : 0
  const cursor = store.sync.cursor?.number
  const done = cursor === undefined ? 0 : Math.min(total, Number(cursor - first + 1n))
  const seconds = Math.max(0.001, (now() - startedAt) / 1000)
  const blocksPerSecond = done / seconds
  return {
    blocksDone: done,
    blocksTotal: total,
    percent: total === 0 ? 100 : Math.round((done / total) * 1000) / 10,
    blocksPerSecond: Math.round(blocksPerSecond * 10) / 10,
    jobs: store.jobList.length,
    etaSeconds: done === 0 ? undefined : Math.round((total - done) / blocksPerSecond),
  }
}
