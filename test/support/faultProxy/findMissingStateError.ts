import type { JsonRpcError } from './jsonRpc.ts'
import type { StateBlockParameter } from './readStateBlockParameter.ts'

export type StateHeader = { number: bigint; stateRoot: string }

export type FindMissingStateErrorParameters = {
  parameter: StateBlockParameter
  head: bigint
  /** States of blocks `head - stateBlocks` .. head are kept; older ones are pruned. */
  stateBlocks: bigint
  /** The header of a block by number or by hash; null when the node does not know it. */
  getHeader: (block: { number: bigint } | { hash: string }) => Promise<StateHeader | null>
}

/** Tags a full node always holds the state of (on mainnet "safe" and "finalized" are < 128 blocks back). */
const recentTags = new Set(['latest', 'pending', 'safe', 'finalized'])

/**
 * Geth's answer to a read of a pruned state, or undefined when the state is kept (or the block is
 * unknown: the node itself answers that). The wording is geth's path scheme (the default since
 * 1.14): the state root is missing, so the trie error quotes the root at an empty path.
 */
export async function findMissingStateError({ parameter, head, stateBlocks, getHeader }: FindMissingStateErrorParameters): Promise<JsonRpcError | undefined> {
  const block = readBlock(parameter)
  if (block === undefined) return undefined
  // A number needs no header to be judged; a hash does.
  if ('number' in block && block.number >= head - stateBlocks) return undefined
  const header = await getHeader(block)
  if (header === null || header.number >= head - stateBlocks) return undefined
  return { code: -32000, message: `missing trie node ${header.stateRoot.slice(2)} (path ) state ${header.stateRoot} is not available` }
}

function readBlock(parameter: StateBlockParameter): { number: bigint } | { hash: string } | undefined {
  if (typeof parameter !== 'string') {
    if (parameter.blockHash !== undefined) return { hash: parameter.blockHash }
    return parameter.blockNumber === undefined ? undefined : readBlock(parameter.blockNumber)
  }
  if (recentTags.has(parameter)) return undefined
  if (parameter === 'earliest') return { number: 0n }
  // Geth takes a bare 32-byte hash where a block number is expected.
  if (parameter.length === 66) return { hash: parameter }
  return { number: BigInt(parameter) }
}
