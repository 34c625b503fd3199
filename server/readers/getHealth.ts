import type { Health } from '../../contract/health.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { readSyncProgress } from './readSyncProgress.ts'
import { toCounters } from './toCounters.ts'
import { toHealth } from './toHealth.ts'

export type GetHealthParameters = {
  /** Epoch milliseconds; defaults to the current time. */
  now?: number | undefined
}
export type GetHealthReturnType = {
  /** Serve with HTTP 200 when true, 503 when false. */
  ok: boolean
  health: Health
}

/**
 * Healthy once the initial back-fill reached the chain head and the last poll succeeded within
 * three poll intervals, unless something is known wrong: the node serves another chain, or the
 * self-check found a record that differs from the chain and has not repaired it yet.
 */
export function getHealth(store: StoreReader, { now = Date.now() }: GetHealthParameters = {}): GetHealthReturnType {
  const { sync } = store
  const progress = readSyncProgress(store, { now })
  const lastIndexedBlock = progress.cursorBlock ?? 0n
  const { chainMismatch, lastError, selfCheck } = sync
  const ok = progress.backfilledAt !== undefined && progress.polledLately && chainMismatch === undefined && selfCheck.unrepaired === 0
  const problems = chainMismatch !== undefined ? [{ code: chainMismatch.code, message: chainMismatch.message }] : lastError === undefined ? [] : [lastError]
  const health = toHealth({
    ok,
    uptimeSec: Math.max(0, Math.floor((now - sync.startedAt) / 1000)),
    lastIndexedBlock,
    counters: toCounters(store.counters),
    headBlock: progress.headBlock ?? lastIndexedBlock,
    // Before the first window the store knows no first block: the record's lastIndexedBlock is 0, and the lag counts from it.
    lagBlocks: progress.lagBlocks ?? Number(progress.headBlock ?? 0n),
    syncing: progress.backfilledAt === undefined,
    chainId: sync.chainId,
    network: sync.network,
    newHeads: sync.newHeads,
    problems,
    selfCheck,
    stalledNodes: sync.stalledNodes,
    now,
  })
  return { ok, health }
}
