import type { LogRangeHint } from '../../chain/rpc/readLogRangeHint.ts'

export type CreateScanWindowParameters = {
  /** Largest window, in blocks (public 0G RPC: ~9,000; `--log-range` sets it). */
  max?: bigint
  /**
   * Logs one window should hold at most (default 2,000): what bounds the node's work, the answer's
   * size and the time the store takes to apply it in one turn of the event loop (7–10 µs a log).
   */
  targetLogs?: number
  /** A window read in more than this (default 2,000 ms) is not grown, however few logs it held. */
  slowMs?: number
  /** Successes in a row after which a size or an answer refused without a named limit may be tried again (limits and load change). */
  forgetAfter?: number
  /** Called when a refusal names the node's limit and it differs from the one known. */
  onLimit?: ((blocks: bigint) => void) | undefined
}

/** What the node made of a window it answered: how many logs, and how long the window took to read. */
export type ScanWindowAnswer = { logs: number; ms: number }

/**
 * Why the node did not answer a window: a range hint or an oversized answer read from its refusal
 * (see readLogRangeHint), `timeout` when it did not answer in time, nothing when it refused
 * naming no limit.
 */
export type ScanWindowRefusal = LogRangeHint | { kind: 'timeout' } | undefined

export type ScanWindow = {
  /** Blocks to ask for in the next `eth_getLogs`. */
  size(): bigint
  /** The widest range the node said it accepts, once it said so. */
  limit(): bigint | undefined
  /** The node answered a window of `size` blocks (without `answer`: says nothing about its load). */
  succeeded(size: bigint, answer?: ScanWindowAnswer): void
  /** The node did not answer `size` blocks; returns false when no smaller window is left to try. */
  rejected(size: bigint, refusal?: ScanWindowRefusal): boolean
}

/**
 * The first window, before any answer tells the density of logs: ten answers grow it to 9,000
 * blocks where logs are sparse, and where they are dense (the bench's market: 75 logs a block)
 * the first answer holds hundreds, not the 30,000 a 1,000-block window did.
 */
const firstSize = 10n

/**
 * The `eth_getLogs` window: one policy for everything that bounds it.
 * - **Range**: a refusal that names the node's limit sets it, for good: no window is wider. One
 *   that names nothing is bisected between the largest size that worked and the smallest one
 *   refused, so it settles just under the limit instead of oscillating across it.
 * - **Load**: a timeout, an answer refused as too big (a count of results, a size in bytes) or a
 *   range the node suggests halves the window, or takes the suggestion; the next answer, read at
 *   the same first block, tells how many logs the refused one held about, and windows then aim
 *   at half of that (unless a fast answer held more already: then the node was busy, and the
 *   window only halved). Every answer sizes the next window to `targetLogs` from its density of logs,
 *   at most doubling it, and only a fast one (under `slowMs`) grows it: where the chain thins out
 *   the window grows back.
 * After `forgetAfter` successes in a row, a size refused without a named limit and a learned load
 * are forgotten (limits and load change). The rate limit lives in the transport (createRpcLimiter):
 * a call waiting for its slot makes its window slow, so a rate-limited node's windows do not grow
 * past what it answers in time.
 */
export function createScanWindow({ max = 9_000n, targetLogs = 2_000, slowMs = 2_000, forgetAfter = 100, onLimit }: CreateScanWindowParameters = {}): ScanWindow {
  let size = firstSize < max ? firstSize : max
  let largestGood = 0n
  let smallestBad: bigint | undefined
  let named: bigint | undefined
  let successes = 0
  let aimLogs = targetLogs
  /** A window refused for its load, waiting for the next answer to learn about how many logs it held. */
  let refusedForLoad: bigint | undefined
  /** The most logs a fast answer held: a timeout on fewer says the node was busy, not that the answer was too big. */
  let mostFastLogs = 0

  const ceiling = (): bigint => {
    let highest = named !== undefined && named < max ? named : max
    if (smallestBad !== undefined && smallestBad - 1n < highest) highest = smallestBad - 1n
    return highest
  }

  const refusedLoad = (used: bigint, suggested: bigint | undefined, logs: bigint | undefined): void => {
    if (logs !== undefined) aimLogs = Math.max(1, Math.min(aimLogs, Number(logs) / 2))
    else refusedForLoad ??= used
    size = clamp(suggested ?? used / 2n, 1n, ceiling())
  }

  return {
    size: () => size,
    limit: () => named,
    succeeded(used, answer) {
      successes += 1
      if (used > largestGood) largestGood = used
      if (successes >= forgetAfter) {
        smallestBad = undefined
        aimLogs = targetLogs
        mostFastLogs = 0
        successes = 0
      }
      if (answer !== undefined && refusedForLoad !== undefined && answer.logs > 0) {
        const refusedLogs = (answer.logs * Number(refusedForLoad)) / Number(used)
        if (refusedLogs > mostFastLogs) aimLogs = Math.max(1, Math.min(aimLogs, refusedLogs / 2))
        refusedForLoad = undefined
      }
      if (answer !== undefined && answer.ms <= slowMs && answer.logs > mostFastLogs) mostFastLogs = answer.logs
      const dense = answer !== undefined && answer.logs > aimLogs
      // A window clipped at the end of the range says nothing about larger ones, unless dense.
      if (used < size && !dense) return
      let next: bigint
      if (answer === undefined) next = smallestBad === undefined ? used * 2n : (used + smallestBad) / 2n
      else {
        // Sized to the logs aimed at by this answer's density, at most doubled, never grown when slow.
        const byDensity = answer.logs === 0 ? used * 2n : BigInt(Math.floor((Number(used) * aimLogs) / answer.logs))
        next = byDensity > used * 2n ? used * 2n : byDensity
        // A slow answer holding logs may be slow for them; an empty one was slow for the node's
        // own reasons (its load, a rate limit's queue), and a timeout shrinks the window anyway:
        // not growing there would leave a long empty history to be read in the first small windows.
        if (next > used && answer.ms > slowMs && answer.logs > 0) next = used
        if (smallestBad !== undefined && next >= smallestBad) next = (used + smallestBad) / 2n
      }
      size = clamp(next, 1n, ceiling())
    },
    rejected(used, refusal) {
      successes = 0
      if (used <= 1n) return false
      if (largestGood >= used) largestGood = 0n
      if (refusal?.kind === 'timeout') refusedLoad(used, undefined, undefined)
      else if (refusal?.kind === 'answer') refusedLoad(used, undefined, refusal.logs)
      else if (refusal?.kind === 'suggestion' && refusal.blocks < used) refusedLoad(used, refusal.blocks, undefined)
      else if (refusal?.kind === 'limit' && refusal.blocks < used) {
        if (smallestBad === undefined || used < smallestBad) smallestBad = used
        if (refusal.blocks !== named) {
          named = refusal.blocks
          onLimit?.(named)
        }
        size = clamp(refusal.blocks, 1n, ceiling())
      } else {
        if (smallestBad === undefined || used < smallestBad) smallestBad = used
        const next = largestGood > 0n ? (largestGood + used) / 2n : used / 2n
        size = clamp(next < used ? next : used - 1n, 1n, max)
      }
      return true
    },
  }
}

function clamp(value: bigint, low: bigint, high: bigint): bigint {
  return value < low ? low : value > high ? high : value
}
