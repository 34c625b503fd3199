/** Orders decimal ids as numbers: a longer one is larger. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)
}

/**
 * A list of records, ordered by id (`newestFirst`: descending), with the record of `id` put in as
 * a stream event gives it: replaced where it stands, added in its place, or taken out (`null`).
 */
export function withRecord<T>(list: readonly T[], { id, record, idOf, newestFirst }: { id: string; record: T | null; idOf: (item: T) => string; newestFirst: boolean }): T[] {
  const kept = list.filter((item) => idOf(item) !== id)
  if (record === null) return kept
  const after = (item: T): boolean => (newestFirst ? -1 : 1) * compareIds(idOf(item), id) > 0
  const index = kept.findIndex(after)
  kept.splice(index === -1 ? kept.length : index, 0, record)
  return kept
}
