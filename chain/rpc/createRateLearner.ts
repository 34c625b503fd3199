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
  /** The clock, the one `refused`'s `sentAt` is read from (`performance.now()` by default). */
  now?: () => number
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
 * stays a ceiling for `forgetRefusalAfterMs`. Below it, each time the node has answered as many
 * calls within a span as the rate in force, the rate goes half the way up to just under the
 * refused rate, in whole calls rounded up: after a refusal at 55 calls with 29 answered, 42, 48,
 * 51, 53 and 54 as fast as the node answers them (the burst after its pause), where a call a
 * second per second took 23 s to reach 51. The node's limit lies between the two; a refusal on the
 * way lowers the ceiling to just under the rate refused there, so each refusal brings it closer and
 * the rate settles under the limit instead of crossing it every few seconds (a node at 50/s:
 * refused at 55, then at 51, then not until the refusal is forgotten). With no refusal to go by
 * (none yet under a configured ceiling, or forgotten: limits change), each success raises the rate
 * by 1/rate, about one call per second per second of full use (additive increase, as TCP's).
 */
export function createRateLearner({
  window,
  ceiling,
  spanMs = 1_000,
  forgetRefusalAfterMs = 60_000,
  now = () => performance.now(),
}: CreateRateLearnerParameters): CreateRateLearnerReturnType {
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

  const answersWithinSpan = (at: number): number => {
    while (answers.length > 0 && (answers[0] as number) <= at - spanMs) answers.shift()
    return answers.length
  }

  const answered = (): void => {
    const at = now()
    answers.push(at)
    answersWithinSpan(at)
  }

  return {
    get rate() {
      return rate
    },
    refused: (sentAt) => {
      // Answers to calls sent before the last lowering speak of the rate before it: a refused batch
      // of 100 calls lowers the rate once, not 100 times.
      if (sentAt < loweredAt) return
      const at = now()
      loweredAt = at
      refusedRate = Math.floor(Number.isFinite(rate) ? rate : window.occupied)
      const accepted = Math.max(answersWithinSpan(at), Math.floor(refusedRate / 2))
      setRate(Math.max(1, Math.min(accepted, refusedRate - 1)))
    },
    answered,
    succeeded: () => {
      answered()
      const at = now()
      if (at - loweredAt >= forgetRefusalAfterMs) refusedRate = Infinity
      const highest = Math.min(ceiling, Math.max(1, refusedRate - 1))
      if (rate >= highest) return
      if (!Number.isFinite(refusedRate)) return setRate(Math.min(highest, rate + 1 / rate))
      // The node has just answered as many calls within a span as the rate in force: it accepts
      // that many, and half the way up to the rate it refused is tried.
      if (answersWithinSpan(at) < Math.floor(rate)) return
      setRate(Math.floor(rate) + Math.ceil((Math.floor(highest) - Math.floor(rate)) / 2))
    },
  }
}
