export type CreateScanWindowParameters = {
  /** Largest window, in blocks (public 0G RPC: ~9,000). */
  max?: bigint
  /** Successes in a row after which a rejected size may be tried again (limits can change). */
  forgetAfter?: number
}

export type ScanWindow = {
  /** Blocks to ask for in the next `eth_getLogs`. */
  size(): bigint
  succeeded(size: bigint): void
  /** The node refused `size`; returns false when no smaller window is left to try. */
  rejected(size: bigint): boolean
}

/**
 * The `eth_getLogs` window size, found by bisection between the largest size that worked and
 * the smallest one the node refused, so it settles just under the node's limit instead of
 * oscillating across it.
 */
export function createScanWindow({ max = 9_000n, forgetAfter = 100 }: CreateScanWindowParameters = {}): ScanWindow {
  let size = max
  let largestGood = 0n
  let smallestBad: bigint | undefined
  let successes = 0

  return {
    size: () => size,
    succeeded(used) {
      successes += 1
      if (used > largestGood) largestGood = used
      // A window clipped at the end of the range says nothing about larger ones.
      if (used < size) return
      if (smallestBad !== undefined && successes >= forgetAfter) {
        smallestBad = undefined
        successes = 0
      }
      const ceiling = smallestBad === undefined ? max : smallestBad - 1n
      const next = smallestBad === undefined ? used * 2n : (used + smallestBad) / 2n
      size = clamp(next > used ? next : used, 1n, ceiling < max ? ceiling : max)
    },
    rejected(used) {
      successes = 0
      if (used <= 1n) return false
      if (smallestBad === undefined || used < smallestBad) smallestBad = used
      if (largestGood >= used) largestGood = 0n
      const next = largestGood > 0n ? (largestGood + used) / 2n : used / 2n
      size = clamp(next < used ? next : used - 1n, 1n, max)
      return true
    },
  }
}

function clamp(value: bigint, low: bigint, high: bigint): bigint {
  return value < low ? low : value > high ? high : value
}
