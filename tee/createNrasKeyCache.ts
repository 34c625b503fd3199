import type { KeyObject } from 'node:crypto'
import type { NrasKeys } from './fetchNrasKeys.ts'

export type CreateNrasKeyCacheParameters = {
  /** e.g. `fetchNrasKeys` bound to a base URL. */
  fetchKeys: () => Promise<NrasKeys>
  /** How long a fetched key set serves. Default 1 hour. */
  maxAgeMs?: number | undefined
  /** The least time between two fetches for a key id the set lacks (a rotation). Default 1 minute. */
  refetchAfterMs?: number | undefined
  now?: (() => number) | undefined
}

export type NrasKeyCache = {
  /** The key of `kid`, or undefined when NRAS's key set (fetched again if due) has none. Throws what `fetchKeys` throws. */
  keyFor: (kid: string) => Promise<KeyObject | undefined>
}

const hour = 3_600_000
const minute = 60_000

/**
 * NRAS's keys, fetched once an hour rather than once a check: every GPU check needs them, and
 * NVIDIA rotates them rarely. A key id the set lacks fetches it again (a new key), at most once a
 * minute, so a stream of unknown ids does not become a stream of requests. Concurrent callers
 * share one fetch.
 */
export function createNrasKeyCache({ fetchKeys, maxAgeMs = hour, refetchAfterMs = minute, now = Date.now }: CreateNrasKeyCacheParameters): NrasKeyCache {
  type Entry = { keys: NrasKeys; fetchedAt: number }
  let entry: Entry | undefined
  let pending: Promise<Entry> | undefined
  const refresh = (): Promise<Entry> => {
    pending ??= fetchKeys()
      .then((keys) => (entry = { keys, fetchedAt: now() }))
      .finally(() => {
        pending = undefined
      })
    return pending
  }
  return {
    keyFor: async (kid) => {
      const current = entry === undefined || now() - entry.fetchedAt >= maxAgeMs ? await refresh() : entry
      if (current.keys.has(kid) || now() - current.fetchedAt < refetchAfterMs) return current.keys.get(kid)
      return (await refresh()).keys.get(kid)
    },
  }
}
