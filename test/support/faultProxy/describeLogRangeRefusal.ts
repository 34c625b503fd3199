import type { JsonRpcError } from './jsonRpc.ts'

/** Whose words refuse a wide `eth_getLogs` range; "proxy" is this proxy's own, the rest are real providers'. */
export type LogRangeWording = 'proxy' | 'alchemy' | 'infura' | 'quicknode'

export type DescribeLogRangeRefusalParameters = {
  wording: LogRangeWording
  fromBlock: bigint
  /** Blocks the refused query spans. */
  span: bigint
  maxLogRange: bigint
}

/**
 * The error a provider answers a too-wide range with, as seen in the wild (2025-26). Alchemy and
 * QuickNode also send it with HTTP 400 and 413; here it always comes with 200, inside the batch.
 */
export function describeLogRangeRefusal({ wording, fromBlock, span, maxLogRange }: DescribeLogRangeRefusalParameters): JsonRpcError {
  switch (wording) {
    case 'alchemy': {
      // Alchemy suggests the widest range it would take, starting where the query started.
      const toBlock = fromBlock + maxLogRange - 1n
      return {
        code: -32600,
        message: `You can make eth_getLogs requests with up to a ${maxLogRange} block range. Based on your parameters, this block range should work: [0x${fromBlock.toString(16)}, 0x${toBlock.toString(16)}]`,
      }
    }
    case 'infura':
      return { code: -32602, message: `range ${span} exceeds limit of ${maxLogRange}` }
    case 'quicknode':
      return { code: -32614, message: `eth_getLogs is limited to a ${maxLogRange.toLocaleString('en-US')} range` }
    case 'proxy':
      return { code: -32005, message: `query block range too large: ${span} blocks, max is ${maxLogRange}` }
  }
}
