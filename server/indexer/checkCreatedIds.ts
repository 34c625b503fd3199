import { IncompleteLogsError } from '../../errors/chain.ts'

export type CheckCreatedIdsParameters = {
  /** What is counted, for the message: "job" or "service". */
  kind: string
  /** Ids of the creation events in the window's answer, in order. */
  created: readonly bigint[]
  /** The contract's next id at the block before the window and at its last block. */
  nextBefore: bigint
  nextAfter: bigint
  fromBlock: bigint
  toBlock: bigint
}

/**
 * The contract hands ids out one by one, so the window created exactly the ids from its next id
 * before the window up to its next id at the end: the answer must hold one creation event for
 * each, no more, no fewer. Throws IncompleteLogsError otherwise.
 */
export function checkCreatedIds({ kind, created, nextBefore, nextAfter, fromBlock, toBlock }: CheckCreatedIdsParameters): void {
  const expected = nextAfter - nextBefore
  const seen = new Set<bigint>()
  for (const id of created) {
    if (id < nextBefore || id >= nextAfter || seen.has(id)) {
      throw new IncompleteLogsError({
        fromBlock,
        toBlock,
        reason: `a ${kind} ${id} was created, but the ${kind}s created in these blocks are ${nextBefore} to ${nextAfter - 1n}`,
      })
    }
    seen.add(id)
  }
  if (BigInt(seen.size) !== expected) {
    throw new IncompleteLogsError({
      fromBlock,
      toBlock,
      reason: `${expected} ${kind}s were created (ids ${nextBefore} to ${nextAfter - 1n}), the answer holds ${seen.size} of their creation events`,
    })
  }
}
