export type CreateValuePoolParameters = {
  /** How many distinct values are remembered; the oldest is forgotten past it. */
  limit: number
}

/** Returns the pooled copy of `value`: the first equal one it was given, while remembered. */
export type ValuePool<base extends string | bigint> = <value extends base>(value: value) => value

/**
 * Shares equal strings (or bigints, heap objects too) among the records the store keeps. The
 * values that repeat (addresses, amounts, block numbers and times, transaction hashes) repeat
 * close together, so remembering the last `limit` distinct ones catches them while a pool stays
 * small: a few hundred KB at most.
 */
export function createValuePool<base extends string | bigint>({ limit }: CreateValuePoolParameters): ValuePool<base> {
  const values = new Map<base, base>()
  return <value extends base>(value: value): value => {
    const pooled = values.get(value)
    if (pooled !== undefined) return pooled as value
    if (values.size >= limit) values.delete(values.keys().next().value as base)
    values.set(value, value)
    return value
  }
}
