import { createPublicClient, http, type HttpTransportConfig, type PublicClient } from 'viem'
import type { Deployment } from '../../../config/deployment.ts'
import { createIndexer, type CreateIndexerParameters, type Indexer } from '../../../server/indexer/createIndexer.ts'
import { defaultRpcTimeoutMs } from '../../../server/indexer/defaultRpcTimeoutMs.ts'
import { createStore } from '../../../server/store/createStore.ts'

export type CreateTestIndexerParameters = Partial<Omit<CreateIndexerParameters, 'deployment'>> & {
  rpcUrl: string
  deployment: Pick<Deployment, 'registry' | 'escrow' | 'arbiter' | 'deployBlock' | 'chainId'>
  /** Per-request timeout of the indexer's RPC client; the indexer's own default when absent. */
  timeoutMs?: number
  /** Sees every HTTP request the indexer's client sends (viem's hook), e.g. to record its calls. */
  onFetchRequest?: HttpTransportConfig['onFetchRequest']
}

export type TestIndexer = Indexer & {
  /** The indexer's own client (batching, no transport retries), e.g. pointed at a fault proxy. */
  client: PublicClient
  errors: unknown[]
}

/** An indexer over a test devnet, collecting poll errors instead of logging them. */
export function createTestIndexer({ rpcUrl, deployment, timeoutMs = defaultRpcTimeoutMs, onFetchRequest, ...options }: CreateTestIndexerParameters): TestIndexer {
  const client = createPublicClient({ transport: http(rpcUrl, { batch: { batchSize: 100 }, retryCount: 0, timeout: timeoutMs, onFetchRequest }) })
  const errors: unknown[] = []
  const { pollIntervalMs = 3_000, chainId = deployment.chainId, now } = options
  const indexer = createIndexer(client, {
    deployment,
    startBlock: BigInt(deployment.deployBlock),
    chainId: deployment.chainId,
    onError: (error) => errors.push(error),
    ...options,
    store: options.store ?? createStore({ pollIntervalMs, chainId, network: 'devnet', now }),
  })
  return { ...indexer, client, errors }
}

/** Resolves once the store's cursor stands on the node's current head block, same hash. */
export async function waitForHead(indexer: Indexer, node: PublicClient, { timeoutMs = 30_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const head = await node.getBlock({ blockTag: 'latest' })
    const cursor = indexer.store.sync.cursor
    if (cursor?.number === head.number && cursor.hash === head.hash) return
    if (Date.now() > deadline) throw new Error(`indexer at ${cursor?.number} did not reach head ${head.number}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
