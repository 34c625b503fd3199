import { describe, expect, test } from 'vitest'
import { parseBenchArgs } from '../../bench/parseBenchArgs.ts'

test('default', () => {
  const options = parseBenchArgs([])
  expect(options.servingScaleOnly).toBe(false)
  expect(options.servingJobs).toEqual([10_000, 100_000, 1_000_000])
})

describe('--serving-scale-only', () => {
  test('runs the stage alone', () => {
    expect(parseBenchArgs(['--serving-scale-only']).servingScaleOnly).toBe(true)
  })
})

describe('--serving-jobs', () => {
  test('sizes, the first the baseline', () => {
    expect(parseBenchArgs(['--serving-jobs', '2000,20000']).servingJobs).toEqual([2_000, 20_000])
  })
  test('a quick run stops at 100,000', () => {
    expect(parseBenchArgs(['--quick']).servingJobs).toEqual([10_000, 100_000])
  })
  test('one size is refused', () => {
    expect(() => parseBenchArgs(['--serving-jobs', '1000'])).toThrow(/two sizes or more/)
  })
  test('a size that is no number is refused', () => {
    expect(() => parseBenchArgs(['--serving-jobs', '1000,many'])).toThrow(/--serving-jobs must be a number/)
  })
})

describe('--serving-node-flags', () => {
  test('none by default', () => {
    expect(parseBenchArgs([]).servingNodeFlags).toEqual([])
  })
  test('flags for the stage\'s servers, split at spaces', () => {
    expect(parseBenchArgs(['--serving-node-flags=--max-semi-space-size=64 --single-threaded-gc']).servingNodeFlags).toEqual([
      '--max-semi-space-size=64',
      '--single-threaded-gc',
    ])
  })
})

describe('--skip', () => {
  test('servingscale leaves the stage out of a full run', () => {
    expect(parseBenchArgs(['--skip', 'servingscale']).skip).toEqual(['servingscale'])
  })
})

describe('--node', () => {
  test('hardhat by default', () => {
    expect(parseBenchArgs([]).node).toBe('hardhat')
  })
  test('anvil', () => {
    expect(parseBenchArgs(['--node', 'anvil']).node).toBe('anvil')
  })
  test('another node is refused, naming the ones there are', () => {
    expect(() => parseBenchArgs(['--node', 'geth'])).toThrow(/--node takes hardhat or anvil, got "geth"/)
  })
})

describe('--slow-clients-only', () => {
  test('off by default', () => {
    expect(parseBenchArgs([]).slowClientsOnly).toBe(false)
  })
  test('runs the stage alone', () => {
    expect(parseBenchArgs(['--slow-clients-only']).slowClientsOnly).toBe(true)
  })
  test('slowclients leaves the stage out of a full run', () => {
    expect(parseBenchArgs(['--skip', 'slowclients']).skip).toEqual(['slowclients'])
  })
})

describe('--feed-only', () => {
  test('off by default; 1,000 streams, 100 jobs, 2 rounds of REST', () => {
    const options = parseBenchArgs([])
    expect(options.feedOnly).toBe(false)
    expect([options.feedStreams, options.feedChanges, options.feedRounds]).toEqual([1_000, 100, 2])
  })
  test('runs the stage alone; a quick run creates 30 jobs and loads REST once', () => {
    const options = parseBenchArgs(['--quick', '--feed-only'])
    expect(options.feedOnly).toBe(true)
    expect([options.feedStreams, options.feedChanges, options.feedRounds]).toEqual([1_000, 30, 1])
  })
  test('--feed-streams and --feed-changes', () => {
    const options = parseBenchArgs(['--feed-streams', '200', '--feed-changes', '10'])
    expect([options.feedStreams, options.feedChanges]).toEqual([200, 10])
  })
  test('feed leaves the stage out of a full run', () => {
    expect(parseBenchArgs(['--skip', 'feed']).skip).toEqual(['feed'])
  })
})
