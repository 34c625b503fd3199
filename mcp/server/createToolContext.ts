import { createPublicClient, defineChain } from 'viem'
import { getChainId } from 'viem/actions'
import { httpWithDeadline } from '../../chain/rpc/httpWithDeadline.ts'
import type { Config } from '../../config/ConfigSchema.ts'
import type { StoreReader } from '../../server/store/StoreReader.ts'
import { createChainSource } from '../source/createChainSource.ts'
import { createTeeVerdictCache } from '../source/createTeeVerdictCache.ts'
import { createConfiguredTeeCheck } from '../../tee/createConfiguredTeeCheck.ts'
import { createIndexerSource } from '../source/createIndexerSource.ts'
import { createStoreSource } from '../source/createStoreSource.ts'
import { selectReadSource } from '../source/selectReadSource.ts'
import type { ToolContext } from '../tools/ToolContext.ts'

export type CreateToolContextParameters = {
  log: (message: string) => void
  /** Which server the tools serve: the hosted one never reads the chain per call unless told to. */
  server: 'hosted' | 'local'
  /** The indexer's store, when the server runs in the indexer's process: the read tools use it. */
  store?: StoreReader | undefined
  /** The client being answered, forwarded to a REST indexer (see createIndexerSource); none unless given. */
  forwardedFor?: (() => string | undefined) | undefined
}

export type CreateToolContextReturnType = ToolContext

/** Each request's deadline, headers and body (viem's own default, which stopped at the headers). */
const rpcTimeoutMs = 10_000

/**
 * Connects the tools to the configured network: the chain (always, for payment) and what the read
 * tools go through (see selectReadSource): the indexer's store in this process, the REST indexer
 * at `indexerUrl`, or the chain when asked for. Throws a ConfigError for a setting that does not
 * name one.
 */
export function createToolContext(
  config: Config,
  { log, server, store, forwardedFor }: CreateToolContextParameters,
): CreateToolContextReturnType {
  const chain = defineChain({
    id: config.chainId,
    name: config.network,
    nativeCurrency: { name: 'native token', symbol: config.network === '0g-mainnet' ? '0G' : 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  })
  // Batched: the readers issue their getService/getJob calls together. A node that stalls an answer
  // fails the request at its deadline, so run's waits (receipt, settlement, refund) keep theirs.
  const client = createPublicClient({ chain, transport: httpWithDeadline(config.rpcUrl, { batch: true, retryCount: 2, timeoutMs: rpcTimeoutMs }) })
  const chainSource = createChainSource(client, { registry: config.registry, escrow: config.escrow, teeVerdicts: createTeeVerdictCache({ check: createConfiguredTeeCheck(config, { client }) }) })
  const common = { chain: chainSource, client, network: config.network, escrow: config.escrow, explorerUrl: config.explorerUrl, log }
  const selected = selectReadSource(config, { server, hasStore: store !== undefined })
  if (selected === 'store' && store !== undefined) {
    return { ...common, source: createStoreSource(store), reading: 'the indexer in this process', chainId: async () => store.sync.chainId }
  }
  if (selected === 'indexer' && config.indexerUrl !== null) {
    return {
      ...common,
      source: createIndexerSource({ indexerUrl: config.indexerUrl, forwardedFor }),
      reading: config.indexerUrl,
      // The configured id, as the indexer read checks its own against the chain: asking the node
      // here would cost a call per list_services. /healthz still compares it with the node's.
      chainId: async () => config.chainId,
    }
  }
  return { ...common, source: chainSource, reading: 'the chain, on every tool call', chainId: () => getChainId(client) }
}
