import { describe, expect, test } from 'vitest'
import { createCallWindow } from '../../chain/rpc/createCallWindow.ts'
import { createRateLearner, type CreateRateLearnerParameters } from '../../chain/rpc/createRateLearner.ts'

/** A window holding `answered` calls answered just now and `refused` calls in flight, the node refusing the latter. */
async function refusedAfter({ answered, refused }: { answered: number; refused: number }, options: Partial<CreateRateLearnerParameters> = {}) {
  const window = createCallWindow({ limit: Infinity })
  const learner = createRateLearner({ window, ceiling: Infinity, ...options })
  const sentAt = performance.now()
  for (let call = 0; call < answered; call += 1) {
    ;(await window.take()).release()
    learner.succeeded()
  }
  for (let call = 0; call < refused; call += 1) await window.take()
  for (let call = 0; call < refused; call += 1) learner.refused(sentAt)
  return { window, learner }
}

test('default', async () => {
  const { learner, window } = await refusedAfter({ answered: 50, refused: 1 })
  // The 51st call within a second was refused: the 50 answered are the rate, and the window's limit.
  expect(learner.rate).toBe(50)
  expect(window.limit).toBe(50)
})

describe('refused', () => {
  test('a batch refused whole: half of what the window held, when more than was answered', async () => {
    const { learner } = await refusedAfter({ answered: 39, refused: 41 })
    expect(learner.rate).toBe(40)
  })

  test('calls sent before a lowering do not lower it again', async () => {
    const { learner } = await refusedAfter({ answered: 10, refused: 30 })
    expect(learner.rate).toBe(20)
    learner.refused(performance.now() - 1_000)
    expect(learner.rate).toBe(20)
  })
})

describe('succeeded', () => {
  test('as many answers within a span as the rate: half the way up to just under the rate refused, rounded up, not past it', async () => {
    const { learner } = await refusedAfter({ answered: 10, refused: 30 })
    const rates: number[] = []
    for (let call = 0; call < 1_000; call += 1) {
      learner.succeeded()
      if (learner.rate !== rates.at(-1)) rates.push(learner.rate)
    }
    // Refused at 40 with 10 answered: 20, then 30 (39 - 20, halved, rounded up), 35, 37, 38, 39.
    expect(rates).toEqual([20, 30, 35, 37, 38, 39])
  })

  test('fewer answers within a span than the rate in force: no growth (the node has not shown it accepts more)', async () => {
    let clock = 0
    const window = createCallWindow({ limit: Infinity })
    const learner = createRateLearner({ window, ceiling: Infinity, now: () => clock })
    for (let call = 0; call < 30; call += 1) {
      ;(await window.take()).release()
      learner.answered()
    }
    // A batch of 20 refused after 30 answered: 30 accepted, 49 the most to try.
    for (let call = 0; call < 20; call += 1) await window.take()
    learner.refused(-1)
    expect(learner.rate).toBe(30)
    // After the node's pause, 20 answers a second for 58 s: never 30 within one.
    clock += 1_000
    for (let call = 0; call < 20 * 58; call += 1) {
      clock += 50
      learner.succeeded()
    }
    expect(learner.rate).toBe(30)
  })

  test('forgetRefusalAfterMs: once past, grows beyond the rate refused', async () => {
    const { learner } = await refusedAfter({ answered: 10, refused: 30 }, { forgetRefusalAfterMs: 0 })
    for (let call = 0; call < 1_000; call += 1) learner.succeeded()
    expect(learner.rate).toBeGreaterThan(40)
  })

  test('never past the configured ceiling', () => {
    const window = createCallWindow({ limit: 8 })
    const learner = createRateLearner({ window, ceiling: 8 })
    for (let call = 0; call < 100; call += 1) learner.succeeded()
    expect(learner.rate).toBe(8)
  })
})
