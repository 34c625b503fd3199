import { createPublicClient, http } from 'viem'
import { readContract } from 'viem/actions'
import { escrowAbi } from '../chain/abi/escrow.ts'
import { registryAbi } from '../chain/abi/registry.ts'
import type { Stats } from '../contract/stats.ts'
import { startFaultProxy } from '../test/support/faultProxy.ts'
import { startLongHistoryDevnet } from '../test/support/startLongHistoryDevnet.ts'
import type { ServeIndexerMessage, ServeIndexerOptions } from './serveIndexer.ts'
import type { BenchChild } from './spawnBenchChild.ts'

/** The public node the stage reads through: geth's 128 blocks of state, 0G's ~2,000-block ranges, 50 calls/s. */
export const fullNodeLimits = { stateBlocks: 128n, logRange: 2_000n, callsPerSecond: 50 } as const

export type MeasureFullNodeParameters = {
  /** Blocks of history (at least; the bursts add a few). */
  blocks: bigint
  /** Bursts of market activity spread over them. */
  bursts: number
  startServer: (options: ServeIndexerOptions, name: string) => BenchChild<ServeIndexerMessage>
  progress: (message: string) => void
}

export type FullNodeResult = {
  blocks: number
  bursts: number
  jobs: number
  stateBlocks: number
  logRange: number
  callsPerSecond: number
  /** From the indexer's start to the end of its back-fill. */
  seconds: number
  /** The node's floor: blocks ÷ range ÷ rate, the time its eth_getLogs alone take at its rate. */
  floorSeconds: number
  ratioToFloor: number
  getLogs: number
  rpcCalls: number
  methods: Record<string, number>
  /** What the node refused: state older than it keeps, calls over its rate. */
  stateRefused: number
  rateLimited: number
  peakCallsPerSecond: number
  /** The indexed totals equal the contracts' next ids, read directly. */
  consistent: boolean
  mismatch: string | null
}

/**
 * The real network's shape: a history of `blocks` blocks with the market's activity spread over it,
 * read by a fresh server (`--rpc-rate-limit` set to the node's rate) through a proxy that behaves
 * like a public full node. Times the back-fill and sets it against the floor the node's limits
 * allow.
 */
export async function measureFullNode({ blocks, bursts, startServer, progress }: MeasureFullNodeParameters): Promise<FullNodeResult> {
  progress(`building a ${blocks.toLocaleString('en-US')}-block history with ${bursts} bursts of market activity`)
  const devnet = await startLongHistoryDevnet({ blocks, bursts })
  const proxy = await startFaultProxy({
    target: devnet.rpcUrl,
    stateBlocks: fullNodeLimits.stateBlocks,
    maxLogRange: fullNodeLimits.logRange,
    rateLimit: fullNodeLimits.callsPerSecond,
  })
  try {
    progress(`back-filling it through a full node (${fullNodeLimits.stateBlocks} blocks of state, ${fullNodeLimits.logRange}-block ranges, ${fullNodeLimits.callsPerSecond} calls/s)`)
    const server = startServer(
      {
        rpcUrl: proxy.url,
        wsRpcUrl: null,
        deployment: devnet.deployment,
        startBlock: devnet.deployment.deployBlock,
        pollIntervalMs: 3_000,
        mcp: false,
        rpcRateLimit: fullNodeLimits.callsPerSecond,
      },
      'full-node server',
    )
    const report = await server.next('backfilled')
    const methods = { ...proxy.calls }
    const { restUrl } = await server.next('listening')
    const stats = (await (await fetch(`${restUrl}/v1/stats`)).json()) as Stats
    const chain = createPublicClient({ transport: http(devnet.rpcUrl) })
    const [nextServiceId, nextJobId] = await Promise.all([
      readContract(chain, { address: devnet.deployment.registry, abi: registryAbi, functionName: 'nextServiceId' }),
      readContract(chain, { address: devnet.deployment.escrow, abi: escrowAbi, functionName: 'nextJobId' }),
    ])
    await server.stop()

    const indexed = { services: stats.services, jobs: stats.jobs.total }
    const expected = { services: Number(nextServiceId - 1n), jobs: Number(nextJobId - 1n) }
    const consistent = indexed.services === expected.services && indexed.jobs === expected.jobs
    const blocksRead = Number(devnet.head - BigInt(devnet.deployment.deployBlock) + 1n)
    const floorSeconds = blocksRead / Number(fullNodeLimits.logRange) / fullNodeLimits.callsPerSecond
    const seconds = report.backfillMs / 1000
    return {
      blocks: blocksRead,
      bursts,
      jobs: report.jobs,
      stateBlocks: Number(fullNodeLimits.stateBlocks),
      logRange: Number(fullNodeLimits.logRange),
      callsPerSecond: fullNodeLimits.callsPerSecond,
      seconds,
      floorSeconds,
      ratioToFloor: seconds / floorSeconds,
      getLogs: methods['eth_getLogs'] ?? 0,
      rpcCalls: Object.values(methods).reduce((sum, count) => sum + count, 0),
      methods,
      stateRefused: proxy.counts.stateUnavailable,
      rateLimited: proxy.counts.rateLimited,
      peakCallsPerSecond: proxy.peakCallsPerSecond(),
      consistent,
      mismatch: consistent ? null : `indexed ${JSON.stringify(indexed)}, the contracts hold ${JSON.stringify(expected)}`,
    }
  } finally {
    await proxy.stop()
    await devnet.stop()
  }
}
