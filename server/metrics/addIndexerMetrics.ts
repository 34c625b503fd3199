import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { Indexer } from '../indexer/createIndexer.ts'
import type { RpcNodeLimits } from '../indexer/createIndexerTransport.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import type { RpcObserver } from './createRpcObserver.ts'
import { measureBackfill } from './measureBackfill.ts'

export type AddIndexerMetricsParameters = {
  registry: Registry
  rpc: RpcObserver
  /** The first block the indexer reads, when configured (else the first `eth_getLogs` tells). */
  startBlock: bigint | null
  now?: () => number
}

/** What the indexer reports as it goes; everything else is read from the store at scrape time. */
export type IndexerMetrics = {
  onPoll: () => void
  onFailedPoll: () => void
  onReorg: (reorg: { depth: bigint }) => void
  /** The indexer whose state the gauges read; set once it is made. */
  observe: (indexer: ObservedIndexer) => void
}

/** What the gauges read of an indexer: its store, its eth_getLogs window and its nodes' rate limits. */
export type ObservedIndexer = Pick<Indexer, 'store' | 'logWindow'> & { rpcLimits: () => RpcNodeLimits[] }

/**
 * The indexer's metrics. Gauges are `collect` callbacks reading the store's own state when
 * Prometheus scrapes (nothing is counted twice, nothing drifts from /healthz); only events that
 * leave no state behind (polls, failures, reorgs, RPC calls) are counted as they happen.
 */
export function addIndexerMetrics({ registry, rpc, startBlock, now = Date.now }: AddIndexerMetricsParameters): IndexerMetrics {
  let store: StoreReader | undefined
  let indexer: ObservedIndexer | undefined
  const registers = [registry]

  const headBlock = (): bigint | undefined => store?.sync.headBlock ?? rpc.latestHead
  const cursorBlock = (): bigint | undefined => store?.sync.cursor?.number
  const firstBlock = (): bigint | undefined => startBlock ?? rpc.firstLogsBlock

  const gauge = (name: string, help: string, read: () => number | undefined): void => {
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const value = read()
        if (value !== undefined) this.set(value)
      },
    })
  }

  gauge('indexer_head_block', 'Chain head as the node last reported it.', () => toNumber(headBlock()))
  gauge('indexer_cursor_block', 'Last block whose logs are all applied to the store.', () => toNumber(cursorBlock()))
  gauge('indexer_lag_blocks', 'Head block minus cursor block.', () => {
    const head = headBlock()
    const cursor = cursorBlock() ?? (firstBlock() === undefined ? undefined : firstBlock()! - 1n)
    return head === undefined || cursor === undefined ? undefined : Number(head > cursor ? head - cursor : 0n)
  })
  gauge(
    'indexer_lag_seconds',
    'Seconds since the store last held everything up to the head (the last successful poll; since the start before the back-fill is done).',
    () => {
      if (store === undefined) return undefined
      const { lastPollAt, startedAt } = store.sync
      return Math.max(0, (now() - (lastPollAt ?? startedAt)) / 1000)
    },
  )
  gauge('indexer_backfill_ratio', 'Share of the initial back-fill done, from 0 to 1 (1 once it reached the head).', () => {
    if (store === undefined) return undefined
    if (store.sync.backfilledAt !== undefined) return 1
    const first = firstBlock()
    const head = headBlock()
    if (first === undefined || head === undefined) return 0
    const cursor = cursorBlock() ?? first - 1n
    return head < first ? 1 : Number(cursor - first + 1n) / Number(head - first + 1n)
  })
  const backfill = () =>
    store === undefined || store.sync.backfilledAt !== undefined
      ? undefined
      : measureBackfill({ store, firstBlock, headBlock, startedAt: store.sync.startedAt, now })
  gauge('indexer_backfill_blocks_per_second', 'Blocks the initial back-fill indexed per second so far (0 once it is done).', () =>
    store === undefined ? undefined : (backfill()?.blocksPerSecond ?? 0),
  )
  gauge('indexer_backfill_eta_seconds', 'Seconds the initial back-fill needs yet at its rate so far (0 once it is done).', () =>
    store === undefined ? undefined : (backfill()?.etaSeconds ?? 0),
  )
  new Gauge({
    name: 'indexer_log_range_blocks',
    help: 'The eth_getLogs window in blocks: the size asked now (window), and the widest range the node said it accepts (limit, once it said so).',
    labelNames: ['figure'] as const,
    registers,
    collect() {
      if (indexer === undefined) return
      this.set({ figure: 'window' }, Number(indexer.logWindow.size()))
      const limit = indexer.logWindow.limit()
      if (limit !== undefined) this.set({ figure: 'limit' }, Number(limit))
    },
  })
  new Gauge({
    name: 'indexer_rpc_rate_limit_per_second',
    help: 'Calls per second allowed to each node: configured (--rpc-rate-limit), and in force (lowered by rate-limited answers, learned when none is configured; absent while unlimited).',
    labelNames: ['node', 'figure'] as const,
    registers,
    collect() {
      for (const { url, configuredRate, rateInForce } of indexer?.rpcLimits() ?? []) {
        if (configuredRate !== null) this.set({ node: url, figure: 'configured' }, configuredRate)
        if (rateInForce !== null) this.set({ node: url, figure: 'in_force' }, rateInForce)
      }
    },
  })
  new Gauge({
    name: 'indexer_rpc_rate_limited_calls',
    help: 'Calls per node since the start: answered rate-limited (sent again later, or handed to the next node), and delayed to keep within the rate.',
    labelNames: ['node', 'outcome'] as const,
    registers,
    collect() {
      for (const { url, rateLimitedAnswers, delayedCalls } of indexer?.rpcLimits() ?? []) {
        this.set({ node: url, outcome: 'rate_limited' }, rateLimitedAnswers)
        this.set({ node: url, outcome: 'delayed' }, delayedCalls)
      }
    },
  })
  gauge('indexer_backfilled', '1 once the initial back-fill reached the head, else 0.', () =>
    store === undefined ? undefined : store.sync.backfilledAt === undefined ? 0 : 1,
  )
  gauge('indexer_last_poll_timestamp_seconds', 'Unix time of the last successful poll.', () =>
    store?.sync.lastPollAt === undefined ? undefined : store.sync.lastPollAt / 1000,
  )
  gauge('indexer_new_heads_subscribed', '1 while the new-heads subscription is up; 0 while it is made again, or with no WebSocket URL configured.', () =>
    store === undefined ? undefined : store.sync.newHeads === 'subscribed' ? 1 : 0,
  )
  gauge('indexer_new_heads_last_head_timestamp_seconds', 'Unix time of the last head the new-heads subscription announced (0 before the first).', () =>
    store?.sync.lastHeadAt === undefined ? undefined : store.sync.lastHeadAt / 1000,
  )

  new Gauge({
    name: 'indexer_store_records',
    help: 'Records in the store, by kind.',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      if (store === undefined) return
      this.set({ kind: 'service' }, store.serviceList().length)
      this.set({ kind: 'job' }, store.jobList.length)
    },
  })
  new Gauge({
    name: 'indexer_market_events',
    help: 'Counters derived from the applied events, as /healthz reports them (jobsSettled, ...).',
    labelNames: ['counter'] as const,
    registers,
    collect() {
      if (store === undefined) return
      for (const [name, value] of Object.entries(store.counters)) {
        if (typeof value === 'number') this.set({ counter: name }, value)
      }
    },
  })
  gauge('indexer_settled_wei', 'Total paid to sellers and the protocol by settled jobs, in wei (as a float).', () =>
    store === undefined ? undefined : Number(store.counters.totalSettledWei),
  )
  new Gauge({
    name: 'indexer_self_check',
    help: 'The self-check comparing the store with the chain: repairs made since the start, records known to differ and not repaired yet, differences found.',
    labelNames: ['figure'] as const,
    registers,
    collect() {
      if (store === undefined) return
      const { repairs, unrepaired, differences } = store.sync.selfCheck
      this.set({ figure: 'repairs' }, repairs)
      this.set({ figure: 'unrepaired' }, unrepaired)
      this.set({ figure: 'differences' }, differences)
    },
  })

  const polls = new Counter({ name: 'indexer_polls_total', help: 'Polls by outcome (ok, failed).', labelNames: ['outcome'] as const, registers })
  const reorgs = new Counter({ name: 'indexer_reorgs_total', help: 'Reorgs found (the cursor block changed hash).', registers })
  const rollbackDepth = new Histogram({
    name: 'indexer_rollback_depth_blocks',
    help: 'Blocks undone per reorg.',
    buckets: [1, 2, 3, 5, 10, 20, 50, 100, 500],
    registers,
  })
  const rpcCalls = new Histogram({
    name: 'indexer_rpc_request_duration_seconds',
    help: 'JSON-RPC calls of the indexer by method and outcome (ok, failed), with their latency (a batched call shares its batch latency).',
    labelNames: ['method', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  })
  polls.inc({ outcome: 'ok' }, 0)
  polls.inc({ outcome: 'failed' }, 0)
  rpc.onCall(({ method, ok, seconds }) => rpcCalls.observe({ method, outcome: ok ? 'ok' : 'failed' }, seconds))

  return {
    onPoll: () => polls.inc({ outcome: 'ok' }),
    onFailedPoll: () => polls.inc({ outcome: 'failed' }),
    onReorg: ({ depth }) => {
      reorgs.inc()
      rollbackDepth.observe(Number(depth))
    },
    observe: (observed) => {
      indexer = observed
      store = observed.store
    },
  }
}

function toNumber(value: bigint | undefined): number | undefined {
  return value === undefined ? undefined : Number(value)
}
