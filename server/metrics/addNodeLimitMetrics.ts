import { Gauge, type Registry } from 'prom-client'
import type { ObservedIndexer } from './ObservedIndexer.ts'

/** The limits the indexer keeps to with its nodes: the eth_getLogs window, and each node's call rate and the calls it refused or had to wait. */
export function addNodeLimitMetrics(registry: Registry, { indexer }: { indexer: () => ObservedIndexer | undefined }): void {
  const registers = [registry]
  new Gauge({
    name: 'indexer_log_range_blocks',
    help: 'The eth_getLogs window in blocks: the size asked now (window), and the widest range the node said it accepts (limit, once it said so).',
    labelNames: ['figure'] as const,
    registers,
    collect() {
      const observed = indexer()
      if (observed === undefined) return
      this.set({ figure: 'window' }, Number(observed.logWindow.size()))
      const limit = observed.logWindow.limit()
      if (limit !== undefined) this.set({ figure: 'limit' }, Number(limit))
    },
  })
  new Gauge({
    name: 'indexer_rpc_rate_limit_per_second',
    help: 'Calls per second allowed to each node: configured (--rpc-rate-limit), and in force (lowered by rate-limited answers, learned when none is configured; absent while unlimited).',
    labelNames: ['node', 'figure'] as const,
    registers,
    collect() {
      for (const { url, configuredRate, rateInForce } of indexer()?.rpcLimits() ?? []) {
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
      for (const { url, rateLimitedAnswers, delayedCalls } of indexer()?.rpcLimits() ?? []) {
        this.set({ node: url, outcome: 'rate_limited' }, rateLimitedAnswers)
        this.set({ node: url, outcome: 'delayed' }, delayedCalls)
      }
    },
  })
}
