export type TakeInTurnReturnType = {
  ids: bigint[]
  /** Where the next turn starts. */
  after: bigint
}

/** `count` ids from `start`, wrapping within [first, next): the records one self-check round compares (see createSelfCheck). */
export function takeInTurn(start: bigint | undefined, first: bigint, next: bigint, count: number): TakeInTurnReturnType {
  const ids: bigint[] = []
  const total = next - first
  let id = start === undefined || start < first || start >= next ? first : start
  for (let taken = 0n; taken < BigInt(count) && taken < total; taken += 1n) {
    ids.push(id)
    id = id + 1n >= next ? first : id + 1n
  }
  return { ids, after: id }
}
