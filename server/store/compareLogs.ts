import { compareUintText } from '../../contract/compareUintText.ts'

/** Chain order of two logs: by block, then by position in the block. */
export function compareLogs(blockNumber: string, logIndex: number, b: { blockNumber: string; logIndex: number }): number {
  return compareUintText(blockNumber, b.blockNumber) || logIndex - b.logIndex
}
