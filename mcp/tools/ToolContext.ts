import type { Address, Client } from 'viem'
import type { MarketSource } from '../source/MarketSource.ts'

/** What every tool handler may use. Built once per server process by its entry point. */
export type ToolContext = {
  /** What list_services, get_service and get_job read: the chain, or a REST indexer. */
  source: MarketSource
  /** The chain itself, whatever `source` is: verify_attestation and run never trust a cache. */
  chain: MarketSource
  client: Client
  /**
   * The chain id list_services reports: asked of the chain, or, for the indexer's store read in
   * process, the id the indexer checked against the chain when it started.
   */
  chainId: () => Promise<number>
  /** The configured network's name (`0g-mainnet`, `devnet`). */
  network: string
  escrow: Address
  /** Block explorer base URL (transaction pages at `/tx/<hash>`), null where there is none. */
  explorerUrl: string | null
  /** Diagnostics; on stdio this must be stderr. */
  log: (message: string) => void
}

/** The local (stdio) server's context: `run` also reads its settings from the environment. */
export type LocalToolContext = ToolContext & {
  env: Readonly<Record<string, string | undefined>>
}
