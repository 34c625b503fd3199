import { createPublicClient, http } from 'viem'
import { readContract } from 'viem/actions'
import { escrowAbi } from '../chain/abi/escrow.ts'
import { registryAbi } from '../chain/abi/registry.ts'
import type { Stats } from '../contract/stats.ts'
import { startFaultProxy } from '../test/support/faultProxy.ts'
import { startLongHistoryDevnet, type StartLongHistoryDevnetReturnType } from '../test/support/startLongHistoryDevnet.ts'
import type { ServeIndexerMessage, ServeIndexerOptions } from './serveIndexer.ts'
import type { BenchChild } from './spawnBenchChild.ts'
import { startCountingProxy } from './startCountingProxy.ts'

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
  /**
   * The same node and history with no rate configured, the node refusing a request over its rate
   * with HTTP 429, `Retry-After: 1` and one JSON-RPC error object (issue 33, section 2): the rate
   * is learned from its refusals.
   */
  learned: LearnedRateRun
}

export type LearnedRateRun = {
  seconds: number
  ratioToFloor: number
  /** Calls the node served (refused ones left out). */
  getLogs: number
  rpcCalls: number
  /** HTTP requests the node refused for its rate (what the indexer learned from). */
  rateLimited: number
  /** Most calls that reached the node within a second, refused ones included. */
  peakCallsPerSecond: number
  /** Most calls in one HTTP request. */
  largestBatch: number
  stateRefused: number
  consistent: boolean
  mismatch: string | null
}

/**
 * The real network's shape: a history of `blocks` blocks with the market's activity spread over it,
 * read by a fresh server through a proxy that behaves like a public full node: once with
 * `--rpc-rate-limit` set to the node's rate, once with none, the node teaching it by refusing.
 * Times each back-fill and sets it against the floor the node's limits allow.
 */
export async function measureFullNode({ blocks, bursts, startServer, progress }: MeasureFullNodeParameters): Promise<FullNodeResult> {
  progress(`building a ${blocks.toLocaleString('en-US')}-block history with ${bursts} bursts of market activity`)
  const devnet = await startLongHistoryDevnet({ blocks, bursts })
  const nodeLimits = { target: devnet.rpcUrl, stateBlocks: fullNodeLimits.stateBlocks, maxLogRange: fullNodeLimits.logRange }
  try {
    const blocksRead = Number(devnet.head - BigInt(devnet.deployment.deployBlock) + 1n)
    const floorSeconds = blocksRead / Number(fullNodeLimits.logRange) / fullNodeLimits.callsPerSecond
    const proxy = await startFaultProxy({ ...nodeLimits, rateLimit: fullNodeLimits.callsPerSecond })
    progress(`back-filling it through a full node (${fullNodeLimits.stateBlocks} blocks of state, ${fullNodeLimits.logRange}-block ranges, ${fullNodeLimits.callsPerSecond} calls/s)`)
    const configured = await backfill({ devnet, rpcUrl: proxy.url, rpcRateLimit: fullNodeLimits.callsPerSecond, startServer, name: 'full-node server' }).finally(() => proxy.stop())
    const methods = { ...proxy.calls }

    const node = await startFaultProxy(nodeLimits)
    const gate = await startCountingProxy({ target: node.url, rateLimit: fullNodeLimits.callsPerSecond })
    progress(`again with no --rpc-rate-limit, the node refusing over ${fullNodeLimits.callsPerSecond} calls/s with one-object 429s`)
    const learned = await backfill({ devnet, rpcUrl: gate.url, rpcRateLimit: undefined, startServer, name: 'learned-rate server' }).finally(() =>
      Promise.all([gate.stop(), node.stop()]),
    )
    const gateCounts = gate.counts()
    return {
      blocks: blocksRead,
      bursts,
      jobs: configured.jobs,
      stateBlocks: Number(fullNodeLimits.stateBlocks),
      logRange: Number(fullNodeLimits.logRange),
      callsPerSecond: fullNodeLimits.callsPerSecond,
      seconds: configured.seconds,
      floorSeconds,
      ratioToFloor: configured.seconds / floorSeconds,
      getLogs: methods['eth_getLogs'] ?? 0,
      rpcCalls: Object.values(methods).reduce((sum, count) => sum + count, 0),
      methods,
      stateRefused: proxy.counts.stateUnavailable,
      rateLimited: proxy.counts.rateLimited,
      peakCallsPerSecond: proxy.peakCallsPerSecond(),
      consistent: configured.mismatch === null,
      mismatch: configured.mismatch,
      learned: {
        seconds: learned.seconds,
        ratioToFloor: learned.seconds / floorSeconds,
        getLogs: gateCounts.methods['eth_getLogs'] ?? 0,
        rpcCalls: gateCounts.rpcCalls,
        rateLimited: gateCounts.rateLimited,
        peakCallsPerSecond: gate.peakCallsPerSecond(),
        largestBatch: gateCounts.largestBatch,
        stateRefused: node.counts.stateUnavailable,
        consistent: learned.mismatch === null,
        mismatch: learned.mismatch,
      },
    }
  } finally {
    await devnet.stop()
  }
}

type BackfillParameters = {
  devnet: StartLongHistoryDevnetReturnType
  rpcUrl: string
  rpcRateLimit: number | undefined
  startServer: MeasureFullNodeParameters['startServer']
  name: string
}

/** A fresh server's back-fill through `rpcUrl`: its time, and whether it indexed what the contracts hold. */
async function backfill({ devnet, rpcUrl, rpcRateLimit, startServer, name }: BackfillParameters): Promise<{ seconds: number; jobs: number; mismatch: string | null }> {
  const server = startServer(
    { rpcUrl, wsRpcUrl: null, deployment: devnet.deployment, startBlock: devnet.deployment.deployBlock, pollIntervalMs: 3_000, mcp: false, rpcRateLimit },
    name,
  )
  const report = await server.next('backfilled')
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
  return {
    seconds: report.backfillMs / 1000,
    jobs: report.jobs,
    mismatch: consistent ? null : `indexed ${JSON.stringify(indexed)}, the contracts hold ${JSON.stringify(expected)}`,
  }
}
