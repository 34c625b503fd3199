import type { Config } from '../../config/ConfigSchema.ts'
import { networks } from '../../config/networks.ts'

/** What the explorer page is told about its network (it reads everything else from the API). */
export type ExplorerSite = {
  network: string
  chainId: number
  /** Base URL of the network's block explorer, where transactions and blocks link to; null for none. */
  explorerUrl: string | null
  currency: { symbol: string; decimals: number }
}

/** The explorer's view of the configured network. */
export function toExplorerSite(config: Pick<Config, 'network' | 'chainId' | 'explorerUrl'>): ExplorerSite {
  return {
    network: config.network,
    chainId: config.chainId,
    explorerUrl: config.explorerUrl,
    currency: networks[config.network].nativeCurrency,
  }
}
