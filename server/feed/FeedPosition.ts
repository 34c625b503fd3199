import type { Hash } from 'viem'

/** An indexed head: after every log of its block. */
export const headRank = 2 ** 32

/** A state no single log gives (a reorg's correction, a removal, a repair): after its block's head, so a stream's id at the head still misses none. */
export const correctionRank = 2 ** 32 + 1

/**
 * Where an event stands on the chain: the block of the log it reflects and, as `rank`, the log's
 * index (or `correctionRank`, `headRank`). `witness` is the hash of the indexed block the event
 * was sent at, at or above `block`: a hash names every block below it too, so it tells whether
 * the event's branch is still the chain's.
 */
export type FeedPosition = {
  block: bigint
  rank: number
  witness: Hash
}

/** Orders positions along one branch: by block, then by rank. */
export function compareFeedPositions(a: Omit<FeedPosition, 'witness'>, b: Omit<FeedPosition, 'witness'>): number {
  if (a.block !== b.block) return a.block < b.block ? -1 : 1
  return a.rank - b.rank
}
