import { toCounters } from '../../chain/mappers/toCounters.ts'
import { toHealth } from '../../chain/mappers/toHealth.ts'
import type { Health } from '../../contract/health.ts'
import type { Store } from '../store/createStore.ts'

/** A poll older than this many intervals means the indexer is stuck or the node unreachable. */
const stalePollIntervals = 3

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
 * three poll intervals.
 */
export function getHealth(store: Store, { now = Date.now() }: GetHealthParameters = {}): GetHealthReturnType {
  const { sync } = store
  const lastIndexedBlock = sync.cursor?.number ?? 0n
  const fresh = sync.lastPollAt !== undefined && now - sync.lastPollAt <= stalePollIntervals * sync.pollIntervalMs
  const ok = sync.backfilledAt !== undefined && fresh
  const health = toHealth({
    ok,
    uptimeSec: Math.max(0, Math.floor((now - sync.startedAt) / 1000)),
    lastIndexedBlock,
    counters: toCounters(store.counters),
    headBlock: sync.headBlock ?? lastIndexedBlock,
    syncing: sync.backfilledAt === undefined,
    chainId: sync.chainId,
    network: sync.network,
    newHeads: sync.newHeads,
  })
  return { ok, health }
}
