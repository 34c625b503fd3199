import { describe, expect, test } from 'vitest'
import { feedRetryDelay, maxFeedRetryDelay, minFeedRetryDelay } from '../../client/feedRetryDelay.ts'
import { parseRetryAfter } from '../../contract/parseRetryAfter.ts'

/** The delay with the jitter at both of its ends. */
function bounds(parameters: Parameters<typeof feedRetryDelay>[0]): [number, number] {
  const random = Math.random
  try {
    Math.random = () => 0
    const low = feedRetryDelay(parameters)
    Math.random = () => 1
    return [low, feedRetryDelay(parameters)]
  } finally {
    Math.random = random
  }
}

describe('feedRetryDelay', () => {
  test('default: the stream\'s retry, then up to a quarter more', () => {
    expect(bounds({ failures: 1, retry: 3_000 })).toEqual([3_000, 3_750])
  })

  test('failures: retry doubled at each one in a row, capped at a minute (before jitter)', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((failures) => bounds({ failures, retry: 3_000 })[0])).toEqual([3_000, 6_000, 12_000, 24_000, 48_000, 60_000, 60_000, 60_000])
    expect(maxFeedRetryDelay).toBe(60_000)
    expect(bounds({ failures: 20, retry: 3_000 })[1]).toBe(75_000)
  })

  test('retryAfter: what the indexer asked, whatever the failures, never less', () => {
    expect(bounds({ failures: 5, retry: 3_000, retryAfter: 1_000 })).toEqual([1_000, 1_250])
    expect(bounds({ failures: 1, retry: 3_000, retryAfter: 3_600_000 })).toEqual([60_000, 75_000])
  })

  test('a zero asks for no tight loop', () => {
    expect(bounds({ failures: 1, retry: 0, retryAfter: 0 })[0]).toBe(minFeedRetryDelay)
  })
})

describe('parseRetryAfter', () => {
  test('default: delta-seconds', () => {
    expect(parseRetryAfter('5')).toBe(5_000)
    expect(parseRetryAfter(' 0 ')).toBe(0)
    expect(parseRetryAfter('1.5')).toBe(1_500)
  })

  test('an HTTP date, from now, never negative', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT')
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:30 GMT', { now })).toBe(30_000)
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:27:00 GMT', { now })).toBe(0)
  })

  test('absent or unreadable: undefined', () => {
    expect([null, undefined, '', 'soon', '-1'].map((value) => parseRetryAfter(value))).toEqual([undefined, undefined, undefined, undefined, undefined])
  })
})
