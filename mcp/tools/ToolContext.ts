import type { Address, Client } from 'viem'
import type { MarketSource } from '../source/MarketSource.ts'

/** What every tool handler may use. Built once per server process by its entry point. */
export type ToolContext = {
  /**
   * What list_services, get_service, get_job and verify_attestation read: an index (the store in
   * this process or a REST indexer), so they answer as the REST API does, or the chain.
   */
  source: MarketSource
  /** What `source` is, for the start line: `the indexer in this process`, the indexer's URL, or the chain. */
  reading: string
  /** The chain itself, whatever `source` is: run pays and waits on the chain, never on a cache. */
  chain: MarketSource
  client: Client
  /**
   * The chain id list_services reports: asked of the chain when reading it, the id the indexer
   * checked against the chain for its store read in process, the configured one through a REST indexer.
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
