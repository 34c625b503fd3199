import { compareUintText } from '../../contract/compareUintText.ts'

/**
 * A list of records, ordered by id (`newestFirst`: descending), with the record of `id` put in as
 * a stream event gives it: replaced where it stands, added in its place, or taken out (`null`).
 */
export function withRecord<T>(list: readonly T[], { id, record, idOf, newestFirst }: { id: string; record: T | null; idOf: (item: T) => string; newestFirst: boolean }): T[] {
  const kept = list.filter((item) => idOf(item) !== id)
  if (record === null) return kept
  const after = (item: T): boolean => (newestFirst ? -1 : 1) * compareUintText(idOf(item), id) > 0
  const index = kept.findIndex(after)
  kept.splice(index === -1 ? kept.length : index, 0, record)
  return kept
}
