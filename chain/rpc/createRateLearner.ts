import type { CallWindow } from './createCallWindow.ts'

export type CreateRateLearnerParameters = {
  /** The window whose limit the learned rate sets. */
  window: CallWindow
  /** The configured calls per second, never exceeded; `Infinity` when none was configured. */
  ceiling: number
  /** The span the node counts its calls in (default 1,000 ms). */
  spanMs?: number
  /** How long the rate the node last refused stays a ceiling (default 60,000 ms). */
  forgetRefusalAfterMs?: number
}

export type RateLearner = {
  /** Calls per second allowed now (`Infinity` while unlimited). */
  readonly rate: number
  /** The node refused a call sent at `sentAt` (a `performance.now()` time) for its rate. */
  refused: (sentAt: number) => void
  /** The node answered a call (a result, or a JSON-RPC error that is not a rate limit): it counted it. */
  answered: () => void
  /** The node answered a call with a result: the rate may grow. */
  succeeded: () => void
}
export type CreateRateLearnerReturnType = RateLearner

/**
 * The rate a node's refusals teach. A refusal lowers the rate to what the node has just shown it
 * accepts: the calls it answered within the last span, or half the rate it refused if that is
 * more (at least 1/s; unlimited so far, the refused rate is what the window held). The refused rate
 * stays a ceiling for `forgetRefusalAfterMs`. Each success raises the rate by 1/rate, about one
 * call per second per second of full use, up to that ceiling and the configured one (additive
 * increase, multiplicative decrease, as TCP does: it settles under a limit it is never told, here
 * without crossing it again every few seconds; past the time to forget, it probes again, as limits change).
 */
export function createRateLearner({ window, ceiling, spanMs = 1_000, forgetRefusalAfterMs = 60_000 }: CreateRateLearnerParameters): CreateRateLearnerReturnType {
  let rate = ceiling
  let loweredAt = -Infinity
  /** The rate the node last refused: growth stops just under it until `forgetRefusalAfterMs` has passed. */
  let refusedRate = Infinity
  /** When the node's answers came, oldest first, within the last span. */
  const answers: number[] = []

  const setRate = (value: number): void => {
    rate = value
    window.limit = Math.floor(value)
  }

  const answersWithinSpan = (now: number): number => {
    while (answers.length > 0 && (answers[0] as number) <= now - spanMs) answers.shift()
    return answers.length
  }

  const answered = (): void => {
    const now = performance.now()
    answers.push(now)
    answersWithinSpan(now)
  }

  return {
    get rate() {
      return rate
    },
    refused: (sentAt) => {
      // Answers to calls sent before the last lowering speak of the rate before it: a refused batch
      // of 100 calls lowers the rate once, not 100 times.
      if (sentAt < loweredAt) return
      const now = performance.now()
      loweredAt = now
      refusedRate = Math.floor(Number.isFinite(rate) ? rate : window.occupied)
      const accepted = Math.max(answersWithinSpan(now), Math.floor(refusedRate / 2))
      setRate(Math.max(1, Math.min(accepted, refusedRate - 1)))
    },
    answered,
    succeeded: () => {
      answered()
      if (performance.now() - loweredAt >= forgetRefusalAfterMs) refusedRate = Infinity
      const highest = Math.min(ceiling, Math.max(1, refusedRate - 1))
      if (rate < highest) setRate(Math.min(highest, rate + 1 / rate))
    },
  }
}
