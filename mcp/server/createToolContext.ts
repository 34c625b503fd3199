import { createPublicClient, defineChain, http } from 'viem'
import { getChainId } from 'viem/actions'
import type { Config } from '../../config/ConfigSchema.ts'
import type { Store } from '../../server/store/createStore.ts'
import { createChainSource } from '../source/createChainSource.ts'
import { createIndexerSource } from '../source/createIndexerSource.ts'
import { createStoreSource } from '../source/createStoreSource.ts'
import type { ToolContext } from '../tools/ToolContext.ts'

export type CreateToolContextParameters = {
  log: (message: string) => void
  /** The indexer's store, when the server runs in the indexer's process: the read tools use it. */
  store?: Store | undefined
}

export type CreateToolContextReturnType = ToolContext

/**
 * Connects the tools to the configured network: the chain (always, for verification and
 * payment) and what the read tools go through: the indexer's store in this process when given,
 * else the REST indexer at `indexerUrl` when set, else the chain.
 */
export function createToolContext(
  config: Config,
  { log, store }: CreateToolContextParameters,
): CreateToolContextReturnType {
  const chain = defineChain({
    id: config.chainId,
    name: config.network,
    nativeCurrency: { name: 'native token', symbol: config.network === '0g-mainnet' ? '0G' : 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  })
  // Batched: the readers issue their getService/getJob calls together.
  const client = createPublicClient({ chain, transport: http(config.rpcUrl, { batch: true, retryCount: 2 }) })
  const chainSource = createChainSource(client, { registry: config.registry, escrow: config.escrow })
  const source =
    store !== undefined
      ? createStoreSource(store)
      : config.indexerUrl === null
        ? chainSource
        : createIndexerSource({ indexerUrl: config.indexerUrl })
  return {
    source,
    chain: chainSource,
    client,
    chainId: store === undefined ? () => getChainId(client) : async () => store.sync.chainId,
    network: config.network,
    escrow: config.escrow,
    explorerUrl: config.explorerUrl,
    log,
  }
}
