import { createHash } from 'node:crypto'
import type { CollateralEntry, CollateralStore } from './CollateralStore.ts'
import { type FetchCollateralParameters, type FetchCollateralReturnType, fetchCollateral, intelPcsUrl } from './fetchCollateral.ts'
import type { ReadCollateralKeyReturnType } from './readCollateralKey.ts'

export type { CollateralEntry, CollateralStore }

export type CollateralCacheKey = ReadCollateralKeyReturnType & {
  /** Intel's PCS when absent. */
  pcsUrl?: string | undefined
  /**
   * DER of the root the collateral must chain to when it is not Intel's (the devnet's). Each
   * devnet start makes a new root behind the same PCCS URL, so collateral is kept per root.
   */
  rootCa?: Uint8Array | undefined
}

export type CreateCollateralCacheParameters = {
  store: CollateralStore
  /** Default `fetchCollateral`; a test or the bench may count or replace it. */
  fetch?: ((parameters: FetchCollateralParameters) => Promise<FetchCollateralReturnType>) | undefined
  /** Fetched again this long before it expires, so a verdict never rests on collateral about to lapse. Default 1 day. */
  refreshBeforeMs?: number | undefined
  /** Fetched again at this age whatever its expiry: Intel adds revocations to a CRL before its nextUpdate. Default 1 day. */
  maxAgeMs?: number | undefined
  now?: (() => Date) | undefined
}

export type CollateralCache = {
  /** The collateral for the key: cached while fresh, fetched once for concurrent callers otherwise. Throws the fetch's error only when no unexpired entry is left to serve. */
  get(key: CollateralCacheKey): Promise<CollateralEntry>
}

const day = 86_400_000

/** The store's key for a platform's collateral: one per PCS, FMSPC, PCK CA, TEE type and, when not Intel's, root. */
export function collateralKeyOf({ pcsUrl = intelPcsUrl, fmspc, ca, forSgx, rootCa }: CollateralCacheKey): string {
  const key = `${pcsUrl.replace(/\/+$/, '')}|${fmspc.toUpperCase()}|${ca}|${forSgx ? 'sgx' : 'tdx'}`
  return rootCa === undefined ? key : `${key}|root:${createHash('sha256').update(rootCa).digest('hex')}`
}

/**
 * Collateral per (PCS, FMSPC, CA), kept in `store`: Intel's collateral is per platform and lasts
 * weeks, so one fetch serves every quote of that platform until it must be refreshed. A refresh
 * that fails leaves an unexpired entry in service (Intel's PCS being down does not make every
 * verdict `unreachable`); concurrent requests for one key share one fetch.
 */
export function createCollateralCache({ store, fetch = fetchCollateral, refreshBeforeMs = day, maxAgeMs = day, now = () => new Date() }: CreateCollateralCacheParameters): CollateralCache {
  const inFlight = new Map<string, Promise<CollateralEntry>>()
  const fresh = (entry: CollateralEntry, at: number) => at < entry.expiresAt.getTime() - refreshBeforeMs && at - entry.fetchedAt.getTime() < maxAgeMs

  // In front of the store, so a fresh entry costs the database or the file nothing.
  const memory = new Map<string, CollateralEntry>()

  async function load(id: string, key: CollateralCacheKey): Promise<CollateralEntry> {
    const cached = memory.get(id) ?? (await store.read(id))
    if (cached !== undefined && fresh(cached, now().getTime())) {
      memory.set(id, cached)
      return cached
    }
    let fetched: FetchCollateralReturnType
    try {
      fetched = await fetch(key)
    } catch (error) {
      if (cached !== undefined && now() < cached.expiresAt) return cached
      throw error
    }
    memory.set(id, fetched)
    // A store that cannot be written costs a fetch after the next restart, not this verdict.
    await store.write(id, fetched).catch(() => {})
    return fetched
  }

  return {
    get(key) {
      const id = collateralKeyOf(key)
      const known = memory.get(id)
      if (known !== undefined && fresh(known, now().getTime())) return Promise.resolve(known)
      const running = inFlight.get(id)
      if (running !== undefined) return running
      const loading = load(id, key).finally(() => inFlight.delete(id))
      inFlight.set(id, loading)
      return loading
    },
  }
}
