import type { StoreReader } from '../store/StoreReader.ts'

/**
 * Throws the node's ChainIdMismatchError while it serves another chain than the configured one:
 * what the store holds may be fine, but nothing says it is still the chain's, so no data leaves.
 */
export function assertServing(store: StoreReader): void {
  if (store.sync.chainMismatch !== undefined) throw store.sync.chainMismatch
}
