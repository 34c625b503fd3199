/** A job id as the store compares it: a number while exact (a small one costs nothing to keep), else the bigint. */
export type JobKey = number | bigint

/** What the store keeps in id order: its job entries. */
export type Keyed = { readonly key: JobKey }

const maxExactId = BigInt(Number.MAX_SAFE_INTEGER)

export function jobKey(jobId: bigint): JobKey {
  return jobId <= maxExactId ? Number(jobId) : jobId
}

/** Jobs almost always arrive in id order, so the common case is a push. */
export function insertById<entry extends Keyed>(entries: entry[], entry: entry): void {
  const last = entries.at(-1)
  if (last === undefined || last.key < entry.key) {
    entries.push(entry)
    return
  }
  entries.splice(lowerBoundById(entries, entry.key), 0, entry)
}

export function removeById<entry extends Keyed>(entries: entry[], entry: entry): void {
  const index = lowerBoundById(entries, entry.key)
  if (entries[index] === entry) entries.splice(index, 1)
}

/** The position of the first entry whose key is not below `key`. */
function lowerBoundById(entries: readonly Keyed[], key: JobKey): number {
  let low = 0
  let high = entries.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((entries[middle] as Keyed).key < key) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * The entry with this key. The escrow hands ids out one by one, so a store holds a run of them
 * without gaps (maybe after a few older ones touched later): counted back from the newest entry,
 * or on from the oldest, the position is then exact. Otherwise, a binary search.
 */
export function findJob<entry extends Keyed>(entries: readonly entry[], key: JobKey): entry | undefined {
  const newest = entries.at(-1)
  if (newest === undefined) return undefined
  // The newest key is the largest: when it is a number, every key is.
  if (typeof key === 'number' && typeof newest.key === 'number') {
    const fromNewest = entries[entries.length - 1 - (newest.key - key)]
    if (fromNewest?.key === key) return fromNewest
    const fromOldest = entries[key - ((entries[0] as entry).key as number)]
    if (fromOldest?.key === key) return fromOldest
  }
  const found = entries[lowerBoundById(entries, key)]
  return found?.key === key ? found : undefined
}
