import type { TeeCollateral } from '../contract/tee.ts'

/** One platform's collateral as cached: what was fetched, when, and until when it is usable. */
export type CollateralEntry = {
  collateral: TeeCollateral
  expiresAt: Date
  fetchedAt: Date
}

/**
 * Where fetched collateral is kept across restarts: the indexer backs it with its database, the
 * local MCP server with a file (`createFileCollateralStore`), tests with memory. Keys are opaque
 * strings (`collateralKeyOf`); a store only keeps what it is given.
 */
export interface CollateralStore {
  read(key: string): Promise<CollateralEntry | undefined>
  write(key: string, entry: CollateralEntry): Promise<void>
}
