import { createPublicClient, defineChain, http } from 'viem'
import type { Config } from '../../config/ConfigSchema.ts'
import { createChainSource } from '../source/createChainSource.ts'
import { createIndexerSource } from '../source/createIndexerSource.ts'
import type { ToolContext } from '../tools/ToolContext.ts'

export type CreateToolContextParameters = {
  log: (message: string) => void
}

export type CreateToolContextReturnType = ToolContext

/**
 * Connects the tools to the configured network: the chain (always, for verification and
 * payment) and, when `indexerUrl` is set, the REST indexer the read tools go through.
 */
export function createToolContext(config: Config, { log }: CreateToolContextParameters): CreateToolContextReturnType {
  const chain = defineChain({
    id: config.chainId,
    name: config.network,
    nativeCurrency: { name: 'native token', symbol: config.network === '0g-mainnet' ? '0G' : 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  })
  // Batched: the readers issue their getService/getJob calls together.
  const client = createPublicClient({ chain, transport: http(config.rpcUrl, { batch: true, retryCount: 2 }) })
  const chainSource = createChainSource(client, { registry: config.registry, escrow: config.escrow })
  return {
    source: config.indexerUrl === null ? chainSource : createIndexerSource({ indexerUrl: config.indexerUrl }),
    chain: chainSource,
    client,
    network: config.network,
    escrow: config.escrow,
    explorerUrl: config.explorerUrl,
    log,
  }
}
