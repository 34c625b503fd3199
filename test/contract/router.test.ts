import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core'
import type { z } from 'zod'
import { describe, expect, test } from 'vitest'
import { jobsLimit } from '../../contract/jobsQuery.ts'
import { marketContract } from '../../contract/router.ts'

function routesOf(router: AppRouter): AppRoute[] {
  return Object.values(router).flatMap((value) => (isAppRoute(value) ? [value] : routesOf(value)))
}

const idParams = marketContract.services.getService.pathParams
const jobIdParams = marketContract.jobs.getJob.pathParams
const addressParams = marketContract.sellers.getSeller.pathParams
const jobsQuery = marketContract.jobs.listJobs.query
const hashParams = marketContract.transactions.getTransaction.pathParams

test("default: the seven GET endpoints of the interface document, the service history, the TEE verdicts and evidence, a job's dispute and transaction lookup the explorer reads, the buyers, and the live feed", () => {
  expect(routesOf(marketContract).map((route) => `${route.method} ${route.path}`)).toEqual([
    'GET /healthz',
    'GET /v1/services',
    'GET /v1/services/:id',
    'GET /v1/services/:id/events',
    'GET /v1/services/tee',
    'GET /v1/services/:id/tee',
    'GET /v1/services/:id/tee/evidence',
    'GET /v1/jobs',
    'GET /v1/jobs/:id',
    'GET /v1/jobs/:id/dispute',
    'GET /v1/sellers/:address',
    'GET /v1/buyers/:address',
    'GET /v1/stats',
    'GET /v1/transactions/:hash',
    'GET /v1/events',
  ])
})

test('every route has a summary, a description and strict status codes', () => {
  for (const route of routesOf(marketContract)) {
    expect(route.summary, route.path).toBeTruthy()
    expect(route.description, route.path).toBeTruthy()
    expect(route.strictStatusCodes, route.path).toBe(true)
  }
})

test('declared statuses', () => {
  const statuses = Object.fromEntries(
    routesOf(marketContract).map((route) => [route.path, Object.keys(route.responses).map(Number)]),
  )
  expect(statuses).toEqual({
    // 400: every route refuses unknown query parameters; 429: every route but the health probe limits
    // each client (--rate-limit).
    '/healthz': [200, 400, 503],
    // 503: the node serves another chain (chain_id_mismatch).
    '/v1/services': [200, 400, 429, 503],
    '/v1/services/:id': [200, 400, 404, 429, 503],
    '/v1/services/:id/events': [200, 400, 404, 429, 503],
    // 404 also before a service's first TEE check (tee_verdict_pending) and when it fetched no quote.
    '/v1/services/tee': [200, 400, 429, 503],
    '/v1/services/:id/tee': [200, 400, 404, 429, 503],
    '/v1/services/:id/tee/evidence': [200, 400, 404, 429, 503],
    '/v1/jobs': [200, 400, 429, 503],
    '/v1/jobs/:id': [200, 400, 404, 429, 503],
    '/v1/jobs/:id/dispute': [200, 400, 404, 429, 503],
    '/v1/sellers/:address': [200, 400, 429, 503],
    '/v1/buyers/:address': [200, 400, 429, 503],
    '/v1/stats': [200, 400, 429, 503],
    '/v1/transactions/:hash': [200, 400, 404, 429, 503],
    // 429 also over the stream caps (too_many_streams); 503 also while back-filling (feed_not_ready).
    '/v1/events': [200, 400, 429, 503],
  })
})

describe('path parameter id', () => {
  // Canonical ids parse (absent ones are a 404, decided by the server); anything else is a 400.
  test.each(['0', '1', '999999', '9'.repeat(78)])('%s is well-formed', (id) => {
    expect(idParams.parse({ id })).toEqual({ id })
    expect(jobIdParams.parse({ id })).toEqual({ id })
  })

  test.each(['-1', '0x1', '1.0', '01', 'abc', '1'.repeat(79), ''])('%j is malformed', (id) => {
    expect(idParams.safeParse({ id }).success).toBe(false)
    expect(jobIdParams.safeParse({ id }).success).toBe(false)
  })
})

describe('path parameter address', () => {
  test.each([
    '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    '0x70997970C51812DC3A010C7D01B50E0D17DC79C8',
    '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    // Wrong checksum: a user's input need not be checksummed.
    '0x70997970c51812dc3a010c7d01b50e0d17dc79C8',
  ])('%s is accepted and kept as typed', (address) => {
    expect(addressParams.parse({ address })).toEqual({ address })
  })

  test.each([
    '0x1234',
    '70997970c51812dc3a010c7d01b50e0d17dc79c8',
    '0x70997970c51812dc3a010c7d01b50e0d17dc79cz',
    `0x${'ab'.repeat(21)}`,
    'abc',
  ])('%j is malformed', (address) => {
    expect(addressParams.safeParse({ address }).success).toBe(false)
  })
})

describe('path parameter hash', () => {
  test.each([`0x${'ab'.repeat(32)}`, `0x${'AB'.repeat(32)}`, `0x${'0'.repeat(64)}`])('%s is accepted and kept as typed', (hash) => {
    expect(hashParams.parse({ hash })).toEqual({ hash })
  })

  test.each([`0x${'a'.repeat(63)}`, `0x${'a'.repeat(65)}`, 'ab'.repeat(32), `0x${'g'.repeat(64)}`, `0x${'a'.repeat(40)}`, '1', ''])(
    '%j is malformed',
    (hash) => {
      expect(hashParams.safeParse({ hash }).success).toBe(false)
    },
  )
})

describe('query parameter limit', () => {
  const parseLimit = (query: Record<string, unknown>) =>
    (jobsQuery.safeParse(query) as z.SafeParseReturnType<unknown, { limit: number }>)

  test('absent: 50', () => {
    expect(jobsLimit.default).toBe(50)
    expect(parseLimit({}).data).toEqual({ limit: 50 })
  })

  test.each([
    ['1', 1],
    ['50', 50],
    ['999', 999],
    ['1000', 1000],
  ])('%s: that many', (limit, expected) => {
    expect(parseLimit({ limit }).data).toEqual({ limit: expected })
  })

  test.each(['0', '-1', '1001', '10000000000000000000000', 'abc', '1.5', '1e3', '', ' 5', '+5', '050', '0x10'])(
    '%j: invalid',
    (limit) => {
      const result = parseLimit({ limit })
      expect(result.success).toBe(false)
      expect(result.error?.issues[0]?.message).toBe('Expected an integer from 1 to 1000, written in plain digits.')
    },
  )

  test('repeated: invalid', () => {
    const result = parseLimit({ limit: ['5', '6'] })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe(
      'Expected an integer from 1 to 1000, written in plain digits. Give the parameter once.',
    )
  })

  test('other query parameters are refused, naming the allowed ones', () => {
    const result = parseLimit({ limit: '3', cacheBust: '1' })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]).toMatchObject({
      code: 'unrecognized_keys',
      keys: ['cacheBust'],
      message: 'Allowed query parameters: limit, cursor, buyer, seller, serviceId, state.',
    })
  })
})
