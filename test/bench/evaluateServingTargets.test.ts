import { describe, expect, test } from 'vitest'
import { evaluateServingTargets, type ServingScaleFigures } from '../../bench/measureServingAtScale.ts'

const store = (jobs: number, heapBytesPerJob: number) => ({ jobs, fillMs: 1, heapBytesPerJob, rssBytesPerJob: 2 * heapBytesPerJob })
const figures = (p50Ms: number, p99Ms: number): ServingScaleFigures => ({ p50Ms, p99Ms, requestsPerSec: 1, cpuMicrosPerRequest: 1, bodyBytes: 1 })

test('default', () => {
  expect(
    evaluateServingTargets({
      stores: [store(10_000, 1_600), store(1_000_000, 1_400)],
      routes: [{ name: 'GET /v1/stats', figures: [figures(10, 40), figures(12, 49)] }],
    }),
  ).toMatchInlineSnapshot(`
    [
      {
        "actual": "1,400 B",
        "met": true,
        "name": "heap per job at 1,000,000 jobs",
        "target": "<= 1,536 B",
      },
      {
        "actual": "12 / 10 ms (1.20 ×)",
        "met": true,
        "name": "GET /v1/stats p50 at 1,000,000 vs 10,000",
        "target": "<= 1.2 × (or +1 ms)",
      },
      {
        "actual": "49 / 40 ms (1.23 ×)",
        "met": false,
        "name": "GET /v1/stats p99 at 1,000,000 vs 10,000",
        "target": "<= 1.2 × (or +1 ms)",
      },
    ]
  `)
})

describe('stores', () => {
  test('the heap is judged at the last size only', () => {
    const [heap] = evaluateServingTargets({ stores: [store(10_000, 1_000), store(100_000, 1_000), store(1_000_000, 1_537)], routes: [] })
    expect(heap?.met).toBe(false)
  })
})

describe('routes', () => {
  test('one millisecond more is within autocannon\'s resolution', () => {
    const checks = evaluateServingTargets({ stores: [store(1, 1), store(2, 1)], routes: [{ name: 'r', figures: [figures(2, 3), figures(3, 5)] }] })
    expect(checks.slice(1).map(({ met }) => met)).toEqual([true, false])
  })
})
