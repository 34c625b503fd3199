import { insertById, removeById, type Keyed } from './jobsById.ts'

/** Jobs grouped by one of their fields, each group ascending by id. */
export type JobIndex<value, entry extends Keyed> = {
  /** The group's jobs, ascending by id; the same array while the group changes in place. */
  get(value: value): readonly entry[] | undefined
  add(value: value, entry: entry): void
  /** Drops the entry from its group, and the group once empty, so a rollback leaves nothing behind. */
  remove(value: value, entry: entry): void
  clear(): void
}

/**
 * One array of entries per value, sorted by id, so a reader starts at any id by binary search and
 * walks newest first. An entry costs one pointer slot per index it is in (8 B, plus the array's
 * spare capacity); a group, one map entry and an array.
 */
export function createJobIndex<value, entry extends Keyed>(): JobIndex<value, entry> {
  const groups = new Map<value, entry[]>()
  return {
    get: (value) => groups.get(value),
    add(value, entry) {
      const group = groups.get(value)
      if (group === undefined) groups.set(value, [entry])
      else insertById(group, entry)
    },
    remove(value, entry) {
      const group = groups.get(value)
      if (group === undefined) return
      removeById(group, entry)
      if (group.length === 0) groups.delete(value)
    },
    clear: () => groups.clear(),
  }
}
