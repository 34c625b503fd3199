import type { CollateralEntry, CollateralStore } from './CollateralStore.ts'

/** A store that lasts as long as the process: tests, and a server with nowhere to write. */
export function createMemoryCollateralStore(): CollateralStore {
  const entries = new Map<string, CollateralEntry>()
  return {
    read: async (key) => entries.get(key),
    write: async (key, entry) => void entries.set(key, entry),
  }
}
