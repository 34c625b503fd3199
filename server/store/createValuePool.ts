export type CreateValuePoolParameters = {
  /** How many distinct values are surely remembered; up to twice as many may be. */
  limit: number
}

/** Returns the pooled copy of `value`: the first equal one it was given, while remembered. */
export type ValuePool<base extends string | bigint> = <value extends base>(value: value) => value

/**
 * Shares equal strings (or bigints, heap objects too) among the records the store keeps. The
 * values that repeat (addresses, amounts, block numbers and times, transaction hashes) repeat
 * close together, so remembering the last `limit` distinct ones catches them while a pool stays
 * small: a few hundred KB at most. Two generations of `limit` values each, the older dropped
 * whole when the newer fills: values that stay in use move to the newer one, and forgetting costs
 * nothing per value (evicting the oldest one by one took an iterator and a delete per new value,
 * a fifth of a load's time at 100,000 jobs, where most block times are new).
 */
export function createValuePool<base extends string | bigint>({ limit }: CreateValuePoolParameters): ValuePool<base> {
  let newer = new Map<base, base>()
  let older = new Map<base, base>()
  return <value extends base>(value: value): value => {
    const pooled = newer.get(value)
    if (pooled !== undefined) return pooled as value
    const kept = older.get(value) ?? value
    if (newer.size >= limit) {
      older = newer
      newer = new Map()
    }
    newer.set(kept, kept)
    return kept as value
  }
}
