import type { Client } from 'viem'
import { getChainId } from 'viem/actions'

export type CacheChainIdParameters = {
  /** How long an answer (or a failure to answer) is reused. */
  maxAgeMs?: number
  /** Longest wait for the node; past it the read counts as unanswered (null). */
  timeoutMs?: number
}

export type CacheChainIdReturnType = () => Promise<number | null>

/**
 * The node's chain id, read at most once per `maxAgeMs` whoever asks and however often: `/healthz`
 * is public, and a call to the node per request would let anyone spend the operator's RPC quota.
 * Callers that arrive while a read is under way share it. Null when the node did not answer in time.
 */
export function cacheChainId(client: Client, { maxAgeMs = 5_000, timeoutMs = 3_000 }: CacheChainIdParameters = {}): CacheChainIdReturnType {
  let cached: { readAt: number; chainId: Promise<number | null> } | undefined
  return () => {
    const now = performance.now()
    if (cached === undefined || now - cached.readAt >= maxAgeMs) {
      cached = {
        readAt: now,
        chainId: Promise.race([
          getChainId(client).catch(() => null),
          new Promise<null>((resolve) => setTimeout(resolve, timeoutMs, null).unref()),
        ]),
      }
    }
    return cached.chainId
  }
}
