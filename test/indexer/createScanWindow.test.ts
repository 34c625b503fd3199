import { describe, expect, test } from 'vitest'
import { createScanWindow } from '../../server/indexer/createScanWindow.ts'

/** Drives a window against a node that refuses more than `limit` blocks; returns the sizes asked. */
function drive(limit: bigint, requests: number, window = createScanWindow()): bigint[] {
  const sizes: bigint[] = []
  for (let request = 0; request < requests; request += 1) {
    const size = window.size()
    sizes.push(size)
    if (size > limit) window.rejected(size)
    else window.succeeded(size)
  }
  return sizes
}

test('default', () => {
  expect(createScanWindow().size()).toBe(10n)
  expect(drive(9_000n, 11).at(-1)).toBe(9_000n)
})

describe('rejected', () => {
  test('settles on the node limit instead of oscillating across it', () => {
    const sizes = drive(50n, 30)
    expect(sizes.slice(-10)).toEqual(Array(10).fill(50n))
    expect(sizes.filter((size) => size > 50n).length).toBeLessThan(12)
  })

  test('a one-block window refused cannot shrink further', () => {
    const window = createScanWindow({ max: 1n })
    expect(window.rejected(1n)).toBe(false)
  })
})

describe('succeeded', () => {
  test('a window clipped at the end of the range does not shrink the next one', () => {
    const window = createScanWindow({ max: 100n })
    const size = window.size()
    window.succeeded(size - 3n)
    expect(window.size()).toBe(size)
  })

  test('after forgetAfter successes, a larger size is tried again', () => {
    const window = createScanWindow({ max: 1_000n, forgetAfter: 5 })
    drive(50n, 20, window)
    const sizes = drive(200n, 20, window)
    expect(sizes).toContain(200n)
  })
})

describe('a refusal naming the limit', () => {
  test('sets the window to it at once, for good, and says so once', () => {
    const limits: bigint[] = []
    const window = createScanWindow({ max: 9_000n, forgetAfter: 3, onLimit: (blocks) => limits.push(blocks) })
    expect(window.rejected(9_000n, { blocks: 2_000n, kind: 'limit' })).toBe(true)
    expect(window.size()).toBe(2_000n)
    for (let success = 0; success < 20; success += 1) window.succeeded(window.size())
    expect(window.size()).toBe(2_000n)
    expect(window.limit()).toBe(2_000n)
    expect(limits).toEqual([2_000n])
  })

  test('a suggested range is tried next, without becoming a limit', () => {
    const window = createScanWindow({ max: 9_000n, forgetAfter: 2 })
    window.rejected(9_000n, { blocks: 16n, kind: 'suggestion' })
    expect(window.size()).toBe(16n)
    expect(window.limit()).toBeUndefined()
    const sizes = drive(9_000n, 20, window)
    expect(sizes.at(-1)).toBe(9_000n)
  })
})

describe('load', () => {
  test('a timeout halves the window, and small fast answers grow it back to the largest', () => {
    const window = createScanWindow({ max: 8_000n })
    window.succeeded(500n, { logs: 100, ms: 50 })
    // Fewer logs than answered fast before: the node was busy, the answer was not too big.
    expect(window.rejected(1_000n, { kind: 'timeout' })).toBe(true)
    expect(window.size()).toBe(500n)
    const sizes: bigint[] = []
    for (let answer = 0; answer < 6; answer += 1) {
      window.succeeded(window.size(), { logs: 10, ms: 50 })
      sizes.push(window.size())
    }
    expect(sizes).toEqual([1_000n, 2_000n, 4_000n, 8_000n, 8_000n, 8_000n])
  })

  test('a slow answer holding logs does not grow the window, however few; a slow empty one does (the node was slow for its own reasons)', () => {
    const window = createScanWindow({ slowMs: 1_000 })
    window.succeeded(1_000n, { logs: 3, ms: 1_500 })
    expect(window.size()).toBe(1_000n)
    window.succeeded(1_000n, { logs: 0, ms: 1_500 })
    expect(window.size()).toBe(2_000n)
  })

  test('a dense answer sizes the next window to the logs aimed at', () => {
    const window = createScanWindow({ targetLogs: 5_000 })
    window.succeeded(1_000n, { logs: 20_000, ms: 100 })
    expect(window.size()).toBe(250n)
  })

  test('the answer after a timeout tells how many logs were too many; windows aim at half of that', () => {
    const window = createScanWindow({ targetLogs: 5_000 })
    window.rejected(1_000n, { kind: 'timeout' })
    // 500 blocks held 1,000 logs: the 1,000 refused held about 2,000, so windows aim at 1,000.
    window.succeeded(500n, { logs: 1_000, ms: 100 })
    expect(window.size()).toBe(500n)
    window.succeeded(500n, { logs: 100, ms: 100 })
    expect(window.size()).toBe(1_000n)
    window.succeeded(1_000n, { logs: 1_000, ms: 100 })
    expect(window.size()).toBe(1_000n)
  })

  test('a refusal naming a count of results aims at half of it; forgotten after forgetAfter answers', () => {
    const window = createScanWindow({ targetLogs: 5_000, forgetAfter: 3 })
    window.rejected(1_000n, { kind: 'answer', logs: 2_000n })
    expect(window.size()).toBe(500n)
    window.succeeded(500n, { logs: 2_000, ms: 100 })
    expect(window.size()).toBe(250n)
    window.succeeded(250n, { logs: 1_000, ms: 100 })
    window.succeeded(250n, { logs: 1_000, ms: 100 })
    expect(window.size()).toBe(500n)
  })

  test('a load refusal is no range limit: the window may grow past it again', () => {
    const window = createScanWindow({ max: 9_000n })
    window.rejected(1_000n, { kind: 'timeout' })
    window.succeeded(500n, { logs: 1, ms: 10 })
    for (let answer = 0; answer < 6; answer += 1) window.succeeded(window.size(), { logs: 0, ms: 10 })
    expect(window.size()).toBe(9_000n)
    expect(window.limit()).toBeUndefined()
  })
})
