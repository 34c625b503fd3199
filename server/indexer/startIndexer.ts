import { createPublicClient, http, type Transport } from 'viem'
import type { Config } from '../../config/ConfigSchema.ts'
import { redactUrl } from '../../config/redactUrl.ts'
import { checkNode } from './checkNode.ts'
import { createIndexer, describeFailure, type CreateIndexerParameters, type Indexer } from './createIndexer.ts'

export type StartIndexerParameters = Pick<
  Config,
  'rpcUrl' | 'wsRpcUrl' | 'chainId' | 'network' | 'registry' | 'escrow' | 'arbiter' | 'startBlock' | 'deployTimestamp' | 'pollIntervalMs'
>
export type StartIndexerOptions = Pick<CreateIndexerParameters, 'onError' | 'onNewHeadsChange' | 'maxWindow' | 'onPoll' | 'onReorg'> & {
  /** Per-request timeout of the RPC client (default 10,000 ms). */
  timeoutMs?: number
  /** Wraps the RPC transport, e.g. to count calls (see server/metrics/createRpcObserver). */
  observeTransport?: ((transport: Transport) => Transport) | undefined
}
export type StartIndexerReturnType = Indexer

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
  { onError, onNewHeadsChange, maxWindow, timeoutMs = 10_000, onPoll, onReorg, observeTransport = (transport) => transport }: StartIndexerOptions = {},
): StartIndexerReturnType {
  // Retries are the indexer's own (backoff, never skipping); batching turns each window's reads
  // into one request.
  const client = createPublicClient({
    transport: observeTransport(http(config.rpcUrl, { batch: { batchSize }, retryCount: 0, timeout: timeoutMs })),
  })
  const startBlock =
    config.startBlock ?? (config.deployTimestamp === null ? 0n : { timestamp: BigInt(config.deployTimestamp) })
  const indexer = createIndexer(client, {
    registry: config.registry,
    escrow: config.escrow,
    arbiter: config.arbiter,
    startBlock,
    chainId: config.chainId,
    network: config.network,
    pollIntervalMs: config.pollIntervalMs,
    maxWindow,
    onError: onError ?? ((error) => console.error(`indexer: poll of ${redactUrl(config.rpcUrl)} failed, retrying: ${describeFailure(error).message}`)),
    newHeads: config.wsRpcUrl === null ? undefined : { url: config.wsRpcUrl, timeoutMs },
    onNewHeadsChange,
    onPoll,
    onReorg,
  })
  indexer.start().catch(onError ?? ((error: unknown) => console.error(error instanceof Error ? error.message : error)))
  return indexer
}

/**
 * The start-up check of a server (see checkNode): the node answers within `waitMs`, serves the
 * configured chain, and holds the registry and the escrow. Throws one clear error otherwise.
 */
export async function checkIndexerNode(
  config: Pick<Config, 'rpcUrl' | 'chainId' | 'registry' | 'escrow'>,
  { waitMs, timeoutMs = 10_000 }: { waitMs?: number; timeoutMs?: number } = {},
): Promise<void> {
  const client = createPublicClient({ transport: http(config.rpcUrl, { retryCount: 0, timeout: timeoutMs }) })
  await checkNode(client, {
    url: config.rpcUrl,
    chainId: config.chainId,
    contracts: { registry: config.registry, escrow: config.escrow },
    waitMs,
  })
}
