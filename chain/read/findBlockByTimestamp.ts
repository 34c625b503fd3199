import type { Client } from 'viem'
import { getBlock } from 'viem/actions'
import { BlockByTimestampNotFoundError } from '../../errors/chain.ts'

export type FindBlockByTimestampParameters = {
  /** Unix seconds. */
  timestamp: bigint
}
export type FindBlockByTimestampReturnType = bigint

/**
 * The first block whose timestamp is at or after `timestamp`, by binary search over block
 * numbers (block times never decrease). Used to find where a deployment's history starts.
 */
export async function findBlockByTimestamp(
  client: Client,
  { timestamp }: FindBlockByTimestampParameters,
): Promise<FindBlockByTimestampReturnType> {
  const head = await getBlock(client, { blockTag: 'latest' })
  if (head.timestamp < timestamp) throw new BlockByTimestampNotFoundError({ timestamp })
  let low = 0n
  let high = head.number
  while (low < high) {
    const middle = (low + high) / 2n
    const block = await getBlock(client, { blockNumber: middle })
    if (block.timestamp < timestamp) low = middle + 1n
    else high = middle
  }
  return low
}
