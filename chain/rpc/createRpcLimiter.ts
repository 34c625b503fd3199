import type { EIP1193RequestFn, Transport } from 'viem'
import { NodeCoolingDownError } from '../../errors/chain.ts'
import { classifyRpcError } from './classifyRpcError.ts'
import { createCallWindow } from './createCallWindow.ts'
import { createRateLearner } from './createRateLearner.ts'
import { readRetryAfter } from './readRetryAfter.ts'

export type CreateRpcLimiterParameters = {
  /**
   * Calls per second the node accepts. Undefined: no limit until the node answers "slow down";
   * from then on a learned rate, lowered and recovered the same way as a configured one.
   */
  requestsPerSecond?: number | undefined
  /** Sends of one call, its first included, before its last rate-limited answer is thrown (default 8). */
  maxAttempts?: number
  /** Wait after a rate-limited answer without `Retry-After`, doubled per attempt (default 500 ms). */
  retryDelayMs?: number
  maxRetryDelayMs?: number
  /** Longest `Retry-After` obeyed (default 60,000 ms): a node asking for more is asked again then. */
  maxRetryAfterMs?: number
  /**
   * How long the rate at which the node last refused stays a ceiling (default 60,000 ms): the rate
   * recovers up to just under it, and past it only once this long went by without a refusal
   * (limits change).
   */
  forgetRefusalAfterMs?: number
  /**
   * For a node with others behind it (viem's `fallback`): a rate-limited answer is thrown at once,
   * and until the wait it asked for is over every call is refused at once (NodeCoolingDownError),
   * so the next node takes them. Default false: the call waits and is sent again.
   */
  handOver?: boolean
  /** The node as messages name it (without credentials). */
  url?: string
}

export type RpcLimiterState = {
  /** The configured calls per second; null when none was. */
  configuredRate: number | null
  /** Calls per second allowed now: lowered by rate-limited answers, recovering on successes; null while unlimited. */
  rateInForce: number | null
  /** Calls that waited before being sent: for a slot, for a node's pause, or to be sent again. */
  delayedCalls: number
  /** Rate-limited answers (each call of a refused batch counts one). */
  rateLimitedAnswers: number
  /** How much longer the node asked to be left alone (its `Retry-After`, else the backoff); 0 when it did not. */
  pausedForMs: number
}

export type CreateRpcLimiterReturnType = {
  /** The transport with every JSON-RPC call (batched or not) counted against the node's rate. */
  wrap: <transport extends Transport>(transport: transport) => transport
  readonly state: RpcLimiterState
}

/**
 * Keeps the calls to one node within its rate and adapts to what the node says. Every call, each
 * member of a batch included, holds a slot of the node's window (createCallWindow), so no batch
 * has more members than the rate in force. A rate-limited answer (see classifyRpcError) pauses
 * the node for its `Retry-After` (else an exponential backoff) and lowers the rate in force to
 * what the node has just shown it accepts; successes raise it again (createRateLearner).
 */
export function createRpcLimiter({
  requestsPerSecond,
  maxAttempts = 8,
  retryDelayMs = 500,
  maxRetryDelayMs = 8_000,
  maxRetryAfterMs = 60_000,
  forgetRefusalAfterMs = 60_000,
  handOver = false,
  url = 'the RPC node',
}: CreateRpcLimiterParameters = {}): CreateRpcLimiterReturnType {
  const ceiling = requestsPerSecond ?? Infinity
  const window = createCallWindow({ limit: ceiling })
  const learner = createRateLearner({ window, ceiling, forgetRefusalAfterMs })
  let delayedCalls = 0
  let rateLimitedAnswers = 0
  let lastRateLimited: unknown

  const waitFor = (error: unknown, attempt: number): number =>
    Math.min(maxRetryAfterMs, readRetryAfter(error) ?? Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (attempt - 1)))

  const limited = (inner: ReturnType<Transport>): EIP1193RequestFn =>
    (async (args, options) => {
      let delayed = false
      for (let attempt = 1; ; attempt += 1) {
        const now = performance.now()
        if (handOver && window.pausedUntil > now) {
          throw new NodeCoolingDownError({ url, waitMs: window.pausedUntil - now, cause: lastRateLimited })
        }
        const slot = await window.take({ first: attempt > 1 })
        if (slot.waited && !delayed) {
          delayed = true
          delayedCalls += 1
        }
        const sentAt = performance.now()
        try {
          const result = await inner.request(args, options)
          slot.release()
          learner.succeeded()
          return result
        } catch (error) {
          const kind = classifyRpcError(error)
          if (kind !== 'rate-limited') {
            // A JSON-RPC error is an answer too: the node counted the call.
            if (kind === 'refused' || kind === 'too-large') learner.answered()
            slot.release()
            throw error
          }
          rateLimitedAnswers += 1
          lastRateLimited = error
          // Before the release: the refused call is one of those the node counted.
          learner.refused(sentAt)
          slot.release()
          window.pause(performance.now() + waitFor(error, attempt))
          if (handOver || attempt >= maxAttempts) throw error
        }
      }
    }) as EIP1193RequestFn

  return {
    wrap: <transport extends Transport>(transport: transport) =>
      ((options: Parameters<Transport>[0]) => {
        const inner = transport(options)
        return { ...inner, request: limited(inner) }
      }) as transport,
    get state() {
      return {
        configuredRate: requestsPerSecond ?? null,
        rateInForce: Number.isFinite(learner.rate) ? Math.floor(learner.rate) : null,
        delayedCalls,
        rateLimitedAnswers,
        pausedForMs: Math.max(0, window.pausedUntil - performance.now()),
      }
    },
  }
}
