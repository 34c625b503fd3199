import type { Client, Hash } from 'viem'
import { getBlock } from 'viem/actions'
import type { BlockRef } from '../store/StoreReader.ts'

export type FindCommonAncestorParameters = {
  /** Blocks the store applied (number → hash). */
  blocks: ReadonlyMap<bigint, Hash>
  /** The node's current head: remembered blocks above it are gone. */
  headBlock: bigint
}
export type FindCommonAncestorReturnType = BlockRef | undefined

/**
 * The highest remembered block the node still has with the same hash: everything above it was
 * reorganized away. Undefined when the reorg is deeper than what is remembered. The headers are
 * requested together, so a batching transport sends one batch.
 */
export async function findCommonAncestor(
  client: Client,
  { blocks, headBlock }: FindCommonAncestorParameters,
): Promise<FindCommonAncestorReturnType> {
  const candidates = [...blocks]
    .filter(([number]) => number <= headBlock)
    .sort(([a], [b]) => (a > b ? -1 : a < b ? 1 : 0))
  const headers = await Promise.all(candidates.map(([blockNumber]) => getBlock(client, { blockNumber })))
  for (const [index, [number, hash]] of candidates.entries()) {
    if (headers[index]?.hash === hash) return { number, hash }
  }
  return undefined
}
