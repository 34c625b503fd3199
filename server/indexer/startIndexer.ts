import { createPublicClient, type Transport } from 'viem'
import { httpWithDeadline } from '../../chain/rpc/httpWithDeadline.ts'
import type { Config } from '../../config/ConfigSchema.ts'
import { redactUrl } from '../../config/redactUrl.ts'
import { NodeUnreachableError } from '../../errors/chain.ts'
import { checkNode } from './checkNode.ts'
import { createIndexer, type CreateIndexerParameters, type Indexer } from './createIndexer.ts'
import { defaultRpcTimeoutMs } from './defaultRpcTimeoutMs.ts'
import { describeFailure } from './describeFailure.ts'
import { createIndexerTransport, type CreateIndexerTransportReturnType, type RpcNodeLimits } from './createIndexerTransport.ts'

export type StartIndexerParameters = Pick<
  Config,
  'rpcUrl' | 'wsRpcUrl' | 'chainId' | 'network' | 'registry' | 'escrow' | 'arbiter' | 'startBlock' | 'deployTimestamp' | 'pollIntervalMs'
> &
  Partial<Pick<Config, 'fallbackRpcUrls' | 'rpcRateLimit' | 'logRange'>>
export type StartIndexerOptions = Pick<CreateIndexerParameters, 'onError' | 'onNewHeadsChange' | 'maxWindow' | 'onPoll' | 'onReorg' | 'onLogRangeLimit' | 'commit'> & {
  /** The store to index into, made by the caller: one loaded from a durable store resumes from its cursor. */
  store: CreateIndexerParameters['store']
  /** Per-request deadline of the RPC client, headers and body (default 10,000 ms; see httpWithDeadline). */
  timeoutMs?: number
  /**
   * The nodes' transports when the caller made them (createNodeTransports), so that calls made
   * before the indexer starts (the start-up check) count against the same rate limits.
   */
  rpc?: CreateIndexerTransportReturnType | undefined
  /** Wraps the RPC transport, e.g. to count calls (see server/metrics/createRpcObserver). */
  observeTransport?: ((transport: Transport) => Transport) | undefined
}
export type StartIndexerReturnType = Indexer & {
  /** Each node's rate limiter (configured rate, rate in force, delayed calls, rate-limited answers), in the configured order. */
  rpcLimits: () => RpcNodeLimits[]
}

/** JSON-RPC batch size: public endpoints commonly cap batches around 100 calls. */
const batchSize = 100

/**
 * Starts the indexer for a loaded configuration and returns at once: `indexer.store` serves
 * (health says "syncing") while the back-fill runs; `await indexer.start()` waits for it. With no
 * start block configured, the first block at or after the deploy timestamp is looked up. With a
 * WebSocket URL, new heads are followed there while every read goes over `rpcUrl`.
 */
export function startIndexer(
  config: StartIndexerParameters,
  { onError, onNewHeadsChange, maxWindow, timeoutMs = defaultRpcTimeoutMs, onPoll, onReorg, onLogRangeLimit, observeTransport = (transport) => transport, rpc, store, commit }: StartIndexerOptions,
): StartIndexerReturnType {
  const { transport, limits, stalls, watchStalls } = rpc ?? createNodeTransports(config, { timeoutMs })
  const client = createPublicClient({ transport: observeTransport(transport) })
  const startBlock =
    config.startBlock ?? (config.deployTimestamp === null ? 0n : { timestamp: BigInt(config.deployTimestamp) })
  const indexer = createIndexer(client, {
    deployment: { registry: config.registry, escrow: config.escrow, arbiter: config.arbiter },
    startBlock,
    chainId: config.chainId,
    pollIntervalMs: config.pollIntervalMs,
    // A call may wait out its deadline on every node in turn before the last one answers it.
    pollStallMs: timeoutMs * (2 + (config.fallbackRpcUrls?.length ?? 0)),
    // Calls go to the next node while one is paused: only when every node is are they held.
    pollHeldForMs: () => Math.min(...limits().map(({ pausedForMs }) => pausedForMs)),
    maxWindow: maxWindow ?? config.logRange ?? undefined,
    onError: onError ?? ((error) => console.error(`indexer: poll of ${redactUrl(config.rpcUrl)} failed, retrying: ${describeFailure(error).message}`)),
    newHeads: config.wsRpcUrl === null ? undefined : { url: config.wsRpcUrl, timeoutMs },
    onNewHeadsChange,
    onPoll,
    onReorg,
    onLogRangeLimit,
    store,
    commit,
  })
  const stopWatchingStalls = watchStalls(() => indexer.store.nodesStalled(stalls()))
  indexer.start().catch(onError ?? ((error: unknown) => console.error(error instanceof Error ? error.message : error)))
  return {
    ...indexer,
    rpcLimits: limits,
    async stop() {
      stopWatchingStalls()
      await indexer.stop()
    },
  }
}

/**
 * Each configured node behind its own rate limiter (`--rpc-rate-limit`), and all of them behind
 * viem's fallback: what the indexer reads through (see createIndexerTransport).
 */
export function createNodeTransports(
  config: Pick<Config, 'rpcUrl'> & Partial<Pick<Config, 'fallbackRpcUrls' | 'rpcRateLimit'>>,
  { timeoutMs = defaultRpcTimeoutMs }: { timeoutMs?: number } = {},
): CreateIndexerTransportReturnType {
  return createIndexerTransport({
    urls: [config.rpcUrl, ...(config.fallbackRpcUrls ?? [])],
    requestsPerSecond: config.rpcRateLimit ?? undefined,
    batchSize,
    timeoutMs,
  })
}

export type CheckIndexerNodeReturnType = {
  /** Fallback nodes that did not answer within `waitMs`: the indexer starts on the others. */
  unreachable: NodeUnreachableError[]
}

/**
 * The start-up check of a server (see checkNode), of every configured node at once: each answers
 * within `waitMs`, serves the configured chain, and holds the registry and the escrow. A node that
 * answers wrongly is one clear error naming it, whichever node it is: it would serve another
 * chain's data whenever a call falls back on it. A node that does not answer is an error only when
 * none does; otherwise it is returned, as it may be down for a while, which is what fallbacks are for.
 */
export async function checkIndexerNode(
  config: Pick<Config, 'rpcUrl' | 'chainId' | 'registry' | 'escrow'> & Partial<Pick<Config, 'fallbackRpcUrls'>>,
  {
    waitMs,
    timeoutMs = defaultRpcTimeoutMs,
    rpc,
  }: {
    waitMs?: number
    timeoutMs?: number
    /** The transports the indexer will read through: the check's calls then count against each node's rate limit. */
    rpc?: Pick<CreateIndexerTransportReturnType, 'nodes'> | undefined
  } = {},
): Promise<CheckIndexerNodeReturnType> {
  const urls = [config.rpcUrl, ...(config.fallbackRpcUrls ?? [])]
  const outcomes = await Promise.allSettled(
    urls.map((url, index) =>
      checkNode(createPublicClient({ transport: rpc?.nodes[index]?.transport ?? httpWithDeadline(url, { retryCount: 0, timeoutMs }) }), {
        url,
        chainId: config.chainId,
        contracts: { registry: config.registry, escrow: config.escrow },
        waitMs,
      }),
    ),
  )
  const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []))
  const wrong = failures.find((failure) => !(failure instanceof NodeUnreachableError))
  if (wrong !== undefined) throw wrong
  if (failures.length === urls.length) throw failures[0]
  return { unreachable: failures as NodeUnreachableError[] }
}
