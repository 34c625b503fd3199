import { Counter, Histogram, type Registry } from 'prom-client'
import { addNewHeadsMetrics } from './addNewHeadsMetrics.ts'
import { addNodeLimitMetrics } from './addNodeLimitMetrics.ts'
import { addStoreContentMetrics } from './addStoreContentMetrics.ts'
import { addSyncProgressMetrics } from './addSyncProgressMetrics.ts'
import type { ObservedIndexer } from './ObservedIndexer.ts'
import type { RpcObserver } from './createRpcObserver.ts'

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

/**
 * The indexer's metrics. Gauges are `collect` callbacks reading the store's own state when
 * Prometheus scrapes (nothing is counted twice, nothing drifts from /healthz); only events that
 * leave no state behind (polls, failures, reorgs, RPC calls) are counted as they happen.
 */
export function addIndexerMetrics({ registry, rpc, startBlock, now = Date.now }: AddIndexerMetricsParameters): IndexerMetrics {
  let indexer: ObservedIndexer | undefined
  const store = () => indexer?.store
  addSyncProgressMetrics(registry, { store, firstBlock: () => startBlock ?? rpc.firstLogsBlock, latestHead: () => rpc.latestHead, now })
  addNodeLimitMetrics(registry, { indexer: () => indexer })
  addNewHeadsMetrics(registry, { store })
  addStoreContentMetrics(registry, { store })

  const registers = [registry]
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
    },
  }
}
