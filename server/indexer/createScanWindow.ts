import type { LogRangeHint } from '../../chain/rpc/readLogRangeHint.ts'

export type CreateScanWindowParameters = {
  /** Largest window, in blocks (public 0G RPC: ~9,000; `--log-range` sets it). */
  max?: bigint
  /** Successes in a row after which a size refused without a named limit may be tried again (limits can change). */
  forgetAfter?: number
  /** Called when a refusal names the node's limit and it differs from the one known. */
  onLimit?: ((blocks: bigint) => void) | undefined
}

export type ScanWindow = {
  /** Blocks to ask for in the next `eth_getLogs`. */
  size(): bigint
  /** The widest range the node said it accepts, once it said so. */
  limit(): bigint | undefined
  succeeded(size: bigint): void
  /**
   * The node refused `size`, naming a range or not (see readLogRangeHint); returns false when no
   * smaller window is left to try.
   */
  rejected(size: bigint, hint?: LogRangeHint | undefined): boolean
}

/**
 * The `eth_getLogs` window size. A refusal that names the node's limit sets it, for good: the next
 * windows are exactly that wide. One that does not is bisected between the largest size that
 * worked and the smallest one the node refused, so it settles just under the limit instead of
 * oscillating across it; a range the node suggests for a request that hit a cap on results is
 * tried next, without becoming a limit.
 */
export function createScanWindow({ max = 9_000n, forgetAfter = 100, onLimit }: CreateScanWindowParameters = {}): ScanWindow {
  let size = max
  let largestGood = 0n
  let smallestBad: bigint | undefined
  let named: bigint | undefined
  let successes = 0

  const ceiling = (): bigint => {
    let highest = named !== undefined && named < max ? named : max
    if (smallestBad !== undefined && smallestBad - 1n < highest) highest = smallestBad - 1n
    return highest
  }

  return {
    size: () => size,
    limit: () => named,
    succeeded(used) {
      successes += 1
      if (used > largestGood) largestGood = used
      // A window clipped at the end of the range says nothing about larger ones.
      if (used < size) return
      if (smallestBad !== undefined && successes >= forgetAfter) {
        smallestBad = undefined
        successes = 0
      }
      const next = smallestBad === undefined ? used * 2n : (used + smallestBad) / 2n
      size = clamp(next > used ? next : used, 1n, ceiling())
    },
    rejected(used, hint) {
      successes = 0
      if (used <= 1n) return false
      if (smallestBad === undefined || used < smallestBad) smallestBad = used
      if (largestGood >= used) largestGood = 0n
      if (hint !== undefined && hint.blocks < used) {
        if (hint.kind === 'limit' && hint.blocks !== named) {
          named = hint.blocks
          onLimit?.(named)
        }
        size = clamp(hint.blocks, 1n, ceiling())
        return true
      }
      const next = largestGood > 0n ? (largestGood + used) / 2n : used / 2n
      size = clamp(next < used ? next : used - 1n, 1n, max)
      return true
    },
  }
}

function clamp(value: bigint, low: bigint, high: bigint): bigint {
  return value < low ? low : value > high ? high : value
}
