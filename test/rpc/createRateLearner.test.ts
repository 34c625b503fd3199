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
  test('grows by 1/rate a success up to just under the rate refused, not past it', async () => {
    const { learner } = await refusedAfter({ answered: 10, refused: 30 })
    for (let call = 0; call < 1_000; call += 1) learner.succeeded()
    expect(learner.rate).toBe(39)
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
