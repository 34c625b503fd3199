import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { createMarketClient, type MarketClient } from '../../client/createMarketClient.ts'
import { BuyerSchema } from '../../contract/buyer.ts'
import { ErrorBodySchema, type ErrorBody } from '../../contract/error.ts'
import { JobListSchema } from '../../contract/lists.ts'
import { SellerSchema } from '../../contract/seller.ts'
import { httpRequest } from './httpRequest.ts'
import { readJobsFromChain, type ChainJob } from './readJobsFromChain.ts'
import { startRestServer, type RestServer } from './startRestServer.ts'

// GET /v1/jobs filters and paging, GET /v1/buyers/:address and the sellers' paged jobs, checked
// against the escrow read directly (the shared seeded devnet, read only), through the typed client.

let server: RestServer
let client: MarketClient
let chain: ChainJob[]

beforeAll(async () => {
  server = await startRestServer()
  client = createMarketClient({ baseUrl: server.baseUrl })
  const { rpcUrl, deployment } = inject('devnet')
  chain = await readJobsFromChain({ rpcUrl, escrow: deployment.escrow })
})
afterAll(() => server.stop())

type JobsQuery = NonNullable<Parameters<MarketClient['jobs']['listJobs']>[0]>['query']

const distinct = <value>(values: readonly value[]): value[] => [...new Set(values)]
const idsOf = (jobs: readonly { jobId: string }[]): string[] => jobs.map(({ jobId }) => jobId)

async function listJobs(query: JobsQuery) {
  const response = await client.jobs.listJobs({ query })
  if (response.status !== 200) throw new Error(`GET /v1/jobs ${JSON.stringify(query)}: ${response.status} ${JSON.stringify(response.body)}`)
  const list = JobListSchema.parse(response.body)
  expect(list.count).toBe(list.jobs.length)
  return list
}

/** Every page of a walk, following nextCursor until null; each page holds at most `limit`. */
async function walk(query: JobsQuery & { limit: number }): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = []
  let cursor: string | undefined
  let pages = 0
  do {
    const page = await listJobs({ ...query, cursor })
    expect(page.count).toBeLessThanOrEqual(query.limit)
    // Only the last page may be short, and only it (or an empty answer) has no next cursor.
    if (page.nextCursor !== null) expect(page.count).toBe(query.limit)
    ids.push(...idsOf(page.jobs))
    cursor = page.nextCursor ?? undefined
    pages += 1
  } while (cursor !== undefined)
  return { ids, pages }
}

/** A 400 in our error shape, read over a raw socket (paths the typed client cannot send). */
async function expectBadRequest(path: string): Promise<ErrorBody['error']> {
  const response = await httpRequest(server.baseUrl, path)
  expect(response.status, path).toBe(400)
  return ErrorBodySchema.parse(JSON.parse(response.text)).error
}

test('default: the seeded market has jobs of several buyers, sellers, services and states', () => {
  expect(chain.length).toBeGreaterThan(10)
  expect(distinct(chain.map(({ buyer }) => buyer)).length).toBeGreaterThan(1)
  expect(distinct(chain.map(({ seller }) => seller)).length).toBeGreaterThan(1)
  expect(distinct(chain.map(({ serviceId }) => serviceId)).length).toBeGreaterThan(1)
  expect(distinct(chain.map(({ state }) => state)).length).toBeGreaterThan(3)
})

describe('GET /v1/jobs filters', () => {
  test('no filter: every job, newest first, no next page when all fit', async () => {
    const list = await listJobs({ limit: 1000 })
    expect(idsOf(list.jobs)).toEqual(idsOf(chain))
    expect(list.nextCursor).toBeNull()
  })

  test('buyer: each buyer, in any case, gets exactly its jobs', async () => {
    for (const buyer of distinct(chain.map((job) => job.buyer))) {
      const expected = idsOf(chain.filter((job) => job.buyer === buyer))
      expect(idsOf((await listJobs({ buyer, limit: 1000 })).jobs), buyer).toEqual(expected)
      expect(idsOf((await listJobs({ buyer: buyer.toLowerCase(), limit: 1000 })).jobs)).toEqual(expected)
    }
  })

  test('seller: each seller gets exactly its jobs', async () => {
    for (const seller of distinct(chain.map((job) => job.seller)))
      expect(idsOf((await listJobs({ seller: seller.toUpperCase().replace('0X', '0x'), limit: 1000 })).jobs), seller).toEqual(
        idsOf(chain.filter((job) => job.seller === seller)),
      )
  })

  test('serviceId: each service gets exactly its jobs; an unknown one none', async () => {
    for (const serviceId of distinct(chain.map((job) => job.serviceId)))
      expect(idsOf((await listJobs({ serviceId, limit: 1000 })).jobs), serviceId).toEqual(idsOf(chain.filter((job) => job.serviceId === serviceId)))
    expect(await listJobs({ serviceId: '999999' })).toEqual({ count: 0, jobs: [], nextCursor: null })
  })

  test.each([0, 1, 2, 3, 4, 5, 6])('state %i: exactly the jobs now in it', async (state) => {
    const list = await listJobs({ state, limit: 1000 })
    expect(idsOf(list.jobs)).toEqual(idsOf(chain.filter((job) => job.state === state)))
    for (const job of list.jobs) expect(job.state).toBe(state)
  })

  test('several states, comma-separated or repeated: the jobs in any of them', async () => {
    const expected = idsOf(chain.filter((job) => job.state === 3 || job.state === 5))
    expect(expected.length).toBeGreaterThan(0)
    expect(idsOf((await listJobs({ state: '5,3', limit: 1000 })).jobs)).toEqual(expected)
    const repeated = await httpRequest(server.baseUrl, '/v1/jobs?state=3&state=5&limit=1000')
    expect(repeated.status).toBe(200)
    expect(idsOf(JobListSchema.parse(JSON.parse(repeated.text)).jobs)).toEqual(expected)
    expect(idsOf((await listJobs({ state: '3,3,5', limit: 1000 })).jobs)).toEqual(expected)
  })

  test('filters combine with AND, for every buyer and state of the market', async () => {
    const buyers = distinct(chain.map((job) => job.buyer))
    const states = distinct(chain.map((job) => job.state))
    for (const buyer of buyers)
      for (const state of states) {
        const expected = idsOf(chain.filter((job) => job.buyer === buyer && job.state === state))
        expect(idsOf((await listJobs({ buyer, state, limit: 1000 })).jobs), `${buyer} ${state}`).toEqual(expected)
      }
  })

  test('filters combine with AND: buyer, seller, service and states together', async () => {
    for (const { buyer, seller, serviceId } of chain) {
      const expected = idsOf(chain.filter((job) => job.buyer === buyer && job.seller === seller && job.serviceId === serviceId && job.state !== 0))
      expect(idsOf((await listJobs({ buyer, seller, serviceId, state: '1,2,3,4,5,6', limit: 1000 })).jobs)).toEqual(expected)
    }
    const [first] = chain
    const otherSeller = chain.find((job) => job.seller !== first?.seller)?.seller
    expect(await listJobs({ serviceId: first?.serviceId, seller: otherSeller })).toEqual({ count: 0, jobs: [], nextCursor: null })
  })
})

describe('GET /v1/jobs paging', () => {
  test.each([1, 2, 3, 7])('limit %i: the walk holds every job once, newest first, as the chain has them', async (limit) => {
    const { ids, pages } = await walk({ limit })
    expect(ids).toEqual(idsOf(chain))
    expect(pages).toBe(Math.ceil(chain.length / limit))
  })

  test('a filtered walk holds exactly the filter\'s jobs', async () => {
    const buyer = chain[0]?.buyer as string
    expect((await walk({ buyer, limit: 2 })).ids).toEqual(idsOf(chain.filter((job) => job.buyer === buyer)))
    expect((await walk({ state: '3,5', limit: 2 })).ids).toEqual(idsOf(chain.filter((job) => job.state === 3 || job.state === 5)))
    const seller = chain[0]?.seller as string
    expect((await walk({ seller, state: 3, limit: 1 })).ids).toEqual(idsOf(chain.filter((job) => job.seller === seller && job.state === 3)))
  })

  test('a page that ends exactly at the last job has no next cursor', async () => {
    expect((await listJobs({ limit: chain.length })).nextCursor).toBeNull()
    expect((await listJobs({ limit: chain.length - 1 })).nextCursor).not.toBeNull()
  })

  test('the page size may change along a walk', async () => {
    const first = await listJobs({ limit: 2 })
    const rest = await listJobs({ limit: 1000, cursor: first.nextCursor ?? undefined })
    expect([...idsOf(first.jobs), ...idsOf(rest.jobs)]).toEqual(idsOf(chain))
  })

  test('a cursor works with the filter written differently (address case, state order)', async () => {
    const buyer = chain[0]?.buyer as string
    const first = await listJobs({ buyer: buyer.toLowerCase(), state: '3,5', limit: 1 })
    const next = await listJobs({ buyer, state: '5,3', limit: 1000, cursor: first.nextCursor ?? undefined })
    expect([...idsOf(first.jobs), ...idsOf(next.jobs)]).toEqual(idsOf(chain.filter((job) => job.buyer === buyer && (job.state === 3 || job.state === 5))))
  })

  test('a cursor of another filter or endpoint: 400 invalid_cursor', async () => {
    const buyer = chain[0]?.buyer as string
    const seller = chain[0]?.seller as string
    const unfiltered = (await listJobs({ limit: 1 })).nextCursor as string
    const byBuyer = (await listJobs({ buyer, limit: 1 })).nextCursor as string
    const buyerRoute = BuyerSchema.parse((await client.buyers.getBuyer({ params: { address: buyer }, query: { limit: 1 } })).body).nextCursor as string
    const sellerRoute = SellerSchema.parse((await client.sellers.getSeller({ params: { address: seller }, query: { limit: 1 } })).body).nextCursor as string
    for (const [path, cursor] of [
      [`/v1/jobs?buyer=${buyer}`, unfiltered],
      ['/v1/jobs', byBuyer],
      [`/v1/jobs?buyer=${buyer}&state=3`, byBuyer],
      [`/v1/jobs?seller=${buyer}`, byBuyer],
      [`/v1/jobs?buyer=${buyer}`, buyerRoute],
      [`/v1/buyers/${buyer}`, byBuyer],
      [`/v1/sellers/${seller}`, buyerRoute],
      [`/v1/jobs?seller=${seller}`, sellerRoute],
    ] as const) {
      const error = await expectBadRequest(`${path}${path.includes('?') ? '&' : '?'}cursor=${cursor}`)
      expect(error.code, path).toBe('invalid_cursor')
      expect(error.message).toContain(`"${cursor}"`)
      expect(error.message).toContain('nextCursor')
    }
  })

  test.each(['abc', 'MTIz', '!!!', 'x'.repeat(201), Buffer.from('0:0123456789abcdef').toString('base64url'), Buffer.from('12:zz').toString('base64url')])(
    'a malformed cursor %s: 400',
    async (cursor) => {
      const error = await expectBadRequest(`/v1/jobs?cursor=${encodeURIComponent(cursor)}`)
      expect(['invalid_cursor', 'invalid_parameter']).toContain(error.code)
      expect(error.message).toMatch(/^The query parameter "cursor" is invalid/)
    },
  )

  test('a refused cursor is a 400 with no ETag, even to If-None-Match: *', async () => {
    const buyer = chain[0]?.buyer as string
    const byBuyer = (await listJobs({ buyer, limit: 1 })).nextCursor as string
    for (const path of [`/v1/jobs?cursor=${byBuyer}`, `/v1/sellers/${buyer}?cursor=${byBuyer}`, `/v1/buyers/${chain[1]?.buyer}?cursor=${byBuyer}`]) {
      const response = await httpRequest(server.baseUrl, path, { headers: { 'if-none-match': '*' } })
      expect(response.status, path).toBe(400)
      expect(response.headers.etag).toBeUndefined()
    }
    // The cursor's own list answers 304 as any other.
    expect((await httpRequest(server.baseUrl, `/v1/jobs?buyer=${buyer}&cursor=${byBuyer}`, { headers: { 'if-none-match': '*' } })).status).toBe(304)
  })

  test('a valid cursor with a character changed: 400', async () => {
    const cursor = (await listJobs({ limit: 1 })).nextCursor as string
    const changed = `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`
    expect((await expectBadRequest(`/v1/jobs?cursor=${changed}`)).code).toBe('invalid_cursor')
  })
})

describe('GET /v1/jobs malformed filters', () => {
  test.each([
    ['buyer', 'buyer=0x1234', /Expected 0x followed by 40 hex digits/],
    ['buyer', `buyer=${'a'.repeat(42)}`, /Expected 0x followed by 40 hex digits/],
    ['seller', 'seller=', /Expected 0x followed by 40 hex digits/],
    ['serviceId', 'serviceId=01', /canonical decimal unsigned integer/],
    ['serviceId', 'serviceId=-1', /canonical decimal unsigned integer/],
    ['state', 'state=7', /numbers from 0 to 6/],
    ['state', 'state=abc', /numbers from 0 to 6/],
    ['state', 'state=1,,2', /numbers from 0 to 6/],
    ['state', 'state=', /numbers from 0 to 6/],
    ['state', 'state=Settled', /3 Settled/],
    ['cursor', 'cursor=', /nextCursor/],
  ])('%s: %s is a 400 naming it and what is allowed', async (parameter, query, expected) => {
    const error = await expectBadRequest(`/v1/jobs?${query}`)
    expect(error.code).toBe('invalid_parameter')
    expect(error.message).toMatch(new RegExp(`^The query parameter "${parameter}" is invalid: got `))
    expect(error.message).toMatch(expected)
  })

  test.each(['buyer', 'seller', 'serviceId', 'cursor'])('%s repeated: 400 saying to give it once', async (parameter) => {
    const value = parameter === 'serviceId' ? '1' : parameter === 'cursor' ? 'abc' : chain[0]?.buyer
    const error = await expectBadRequest(`/v1/jobs?${parameter}=${value}&${parameter}=${value}`)
    expect(error.message).toBe(
      `The query parameter "${parameter}" is invalid: it was given 2 times. ${error.message.split('2 times. ')[1]}`,
    )
    expect(error.message).toMatch(/Give the parameter once\.$/)
  })
})

describe('unknown query parameters, on every route', () => {
  const buyer = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
  test.each([
    ['/v1/jobs?lmit=5', ['lmit'], 'Allowed query parameters: limit, cursor, buyer, seller, serviceId, state.'],
    ['/v1/jobs?limit=5&status=3&page=2', ['status', 'page'], 'Allowed query parameters: limit, cursor, buyer, seller, serviceId, state.'],
    ['/v1/jobs?limit[]=5', ['limit[]'], 'Allowed query parameters: limit, cursor, buyer, seller, serviceId, state.'],
    [`/v1/buyers/${buyer}?seller=${buyer}`, ['seller'], 'Allowed query parameters: limit, cursor.'],
    [`/v1/sellers/${buyer}?offset=10`, ['offset'], 'Allowed query parameters: limit, cursor.'],
    ['/healthz?verbose=1', ['verbose'], 'This path takes no query parameters.'],
    ['/v1/services?activeOnly=true', ['activeOnly'], 'This path takes no query parameters.'],
    ['/v1/services/1?x=1', ['x'], 'This path takes no query parameters.'],
    ['/v1/services/1/events?limit=5', ['limit'], 'This path takes no query parameters.'],
    ['/v1/jobs/1?events=false', ['events'], 'This path takes no query parameters.'],
    ['/v1/stats?y', ['y'], 'This path takes no query parameters.'],
    [`/v1/transactions/0x${'a'.repeat(64)}?z=`, ['z'], 'This path takes no query parameters.'],
    ['/openapi.json?v=2', ['v'], 'This path takes no query parameters.'],
    ['/readyz?probe=1', ['probe'], 'This path takes no query parameters.'],
  ])('%s: 400 naming it and the allowed ones', async (path, unknown, allowed) => {
    const error = await expectBadRequest(path)
    expect(error.code).toBe('unknown_parameter')
    const names = unknown.map((name) => `"${name}"`).join(', ')
    expect(error.message).toBe(
      `The query ${unknown.length === 1 ? 'parameter' : 'parameters'} ${names} ${unknown.length === 1 ? 'is' : 'are'} not taken here. ${allowed}`,
    )
  })

  test.each(['/docs?utm_source=x', '/docs/swagger?x=1', '/?utm_source=x', '/explorer/explorer.js?v=2'])(
    'pages and their assets take what browsers add: %s is a 200',
    async (path) => {
      expect((await httpRequest(server.baseUrl, path)).status).toBe(200)
    },
  )
})

describe('GET /v1/buyers/:address', () => {
  test('each buyer, addressed in any case: its jobs newest first, the address EIP-55', async () => {
    for (const buyer of distinct(chain.map((job) => job.buyer))) {
      const response = await client.buyers.getBuyer({ params: { address: buyer.toLowerCase() }, query: { limit: 1000 } })
      expect(response.status).toBe(200)
      const record = BuyerSchema.parse(response.body)
      expect(record.buyer).toBe(buyer)
      expect(record.nextCursor).toBeNull()
      expect(idsOf(record.jobs)).toEqual(idsOf(chain.filter((job) => job.buyer === buyer)))
    }
  })

  test('paged with limit 1: the walk holds the buyer\'s jobs once each', async () => {
    const buyer = chain[0]?.buyer as string
    const ids: string[] = []
    let cursor: string | undefined
    do {
      const page = BuyerSchema.parse((await client.buyers.getBuyer({ params: { address: buyer }, query: { limit: 1, cursor } })).body)
      ids.push(...idsOf(page.jobs))
      cursor = page.nextCursor ?? undefined
    } while (cursor !== undefined)
    expect(ids).toEqual(idsOf(chain.filter((job) => job.buyer === buyer)))
  })

  test('limit defaults to 50', async () => {
    const buyer = chain[0]?.buyer as string
    const record = BuyerSchema.parse((await client.buyers.getBuyer({ params: { address: buyer } })).body)
    expect(record.jobs.length).toBe(Math.min(50, chain.filter((job) => job.buyer === buyer).length))
  })

  test('an address that paid for nothing: 200, no jobs, EIP-55 echo', async () => {
    const response = await client.buyers.getBuyer({ params: { address: '0xabcdef0000000000000000000000000000000001' } })
    expect(response.status).toBe(200)
    expect(BuyerSchema.parse(response.body)).toEqual({ buyer: getAddress('0xabcdef0000000000000000000000000000000001'), jobs: [], nextCursor: null })
  })

  test.each(['0x1234', `0x${'g'.repeat(40)}`])('malformed address %s: 400', async (address) => {
    const error = await expectBadRequest(`/v1/buyers/${address}`)
    expect(error.message).toMatch(/^The path parameter "address" is invalid/)
  })

  test.each(['0', '1001', 'abc'])('limit=%s: 400', async (limit) => {
    const error = await expectBadRequest(`/v1/buyers/${chain[0]?.buyer}?limit=${limit}`)
    expect(error.message).toMatch(/^The query parameter "limit" is invalid: got ".*"\. Expected an integer from 1 to 1000/)
  })
})

describe('GET /v1/sellers/:address jobs', () => {
  test('limit 1: the walk holds the seller\'s jobs, services on every page', async () => {
    const seller = chain[0]?.seller as string
    const ids: string[] = []
    let cursor: string | undefined
    do {
      const page = SellerSchema.parse((await client.sellers.getSeller({ params: { address: seller }, query: { limit: 1, cursor } })).body)
      expect(page.seller).toBe(seller)
      expect(page.services.length).toBeGreaterThan(0)
      ids.push(...idsOf(page.jobs))
      cursor = page.nextCursor ?? undefined
    } while (cursor !== undefined)
    expect(ids).toEqual(idsOf(chain.filter((job) => job.seller === seller)))
  })

  test('without limit: every job of the seller (default 1,000), no next page', async () => {
    const seller = chain[0]?.seller as string
    const record = SellerSchema.parse((await client.sellers.getSeller({ params: { address: seller.toLowerCase() } })).body)
    expect(idsOf(record.jobs)).toEqual(idsOf(chain.filter((job) => job.seller === seller)))
    expect(record.nextCursor).toBeNull()
  })

  test('every job echoes EIP-55 buyer and seller addresses', async () => {
    for (const job of (await listJobs({ limit: 1000 })).jobs) {
      expect(job.buyer).toBe(getAddress(job.buyer))
      expect(job.seller).toBe(getAddress(job.seller))
    }
  })
})
