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
  expect(createScanWindow().size()).toBe(9_000n)
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
    window.succeeded(7n)
    expect(window.size()).toBe(100n)
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
