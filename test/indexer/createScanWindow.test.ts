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
