import { hexToBytes, type Address, type Hex } from 'viem'
import { isInBloom, toBloomBits } from '../../chain/read/isInBloom.ts'
import { IncompleteLogsError } from '../../errors/chain.ts'

export type FindBloomMissesParameters = {
  /** Every block of the window. */
  headers: readonly { number: bigint; logsBloom: Hex | null }[]
  /** The window's answer. */
  logs: readonly { blockNumber: bigint; address: Address; topics: readonly Hex[] }[]
  /** Each contract and the selectors of its events. */
  sources: readonly { address: Address; selectors: readonly Hex[] }[]
  fromBlock: bigint
  toBlock: bigint
}

/**
 * Ponder's check of a realtime block, for a whole window: the blocks whose `logsBloom` says they
 * may hold a log of one of our (address, event) pairs that the answer has none of. A bloom has
 * false positives, so the caller asks for such a block's logs by its hash before it concludes.
 * A log in the answer that its block's bloom rules out is a lie: IncompleteLogsError.
 */
export function findBloomMisses({ headers, logs, sources, fromBlock, toBlock }: FindBloomMissesParameters): bigint[] {
  const sourceBits = sources.map(({ address, selectors }) => ({
    key: address.toLowerCase(),
    bits: toBloomBits(address),
    selectors: selectors.map((selector) => ({ key: selector, bits: toBloomBits(selector) })),
  }))
  const answered = new Map<bigint, Set<string>>()
  for (const log of logs) {
    const pairs = answered.get(log.blockNumber) ?? new Set<string>()
    pairs.add(`${log.address.toLowerCase()} ${log.topics[0]}`)
    answered.set(log.blockNumber, pairs)
  }

  const misses: bigint[] = []
  for (const header of headers) {
    if (header.logsBloom === null) continue
    const bloom = hexToBytes(header.logsBloom)
    const pairs = answered.get(header.number)
    for (const pair of pairs ?? []) {
      const [address, selector] = pair.split(' ') as [string, Hex]
      const source = sourceBits.find(({ key }) => key === address)
      const event = source?.selectors.find(({ key }) => key === selector)
      if (source !== undefined && event !== undefined && isInBloom(bloom, source.bits) && isInBloom(bloom, event.bits)) continue
      throw new IncompleteLogsError({
        fromBlock,
        toBlock,
        reason: `block ${header.number} holds a log (${address}, ${selector}) its logsBloom rules out`,
      })
    }
    const mayHold = sourceBits.some(
      ({ key, bits, selectors }) =>
        isInBloom(bloom, bits) &&
        selectors.some((selector) => isInBloom(bloom, selector.bits) && !pairs?.has(`${key} ${selector.key}`)),
    )
    if (mayHold) misses.push(header.number)
  }
  return misses
}
