import { initClient } from '@ts-rest/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ErrorBodySchema } from '../../contract/error.ts'
import { HealthSchema } from '../../contract/health.ts'
import { JobDetailSchema, attestedState, jobAttestationKeys, refineJobKeys, type Job } from '../../contract/job.ts'
import { JobListSchema, ServiceListSchema } from '../../contract/lists.ts'
import { marketContract } from '../../contract/router.ts'
import { SellerSchema } from '../../contract/seller.ts'
import { ServiceSchema, type Service } from '../../contract/service.ts'
import { StatsSchema } from '../../contract/stats.ts'
import { seededJobs } from '../mcp/support/seededJobs.ts'
import { startRestServer, type RestServer } from './startRestServer.ts'

const clientOf = (baseUrl: string) => initClient(marketContract, { baseUrl, baseHeaders: {} })

let server: RestServer
let client: ReturnType<typeof clientOf>

beforeAll(async () => {
  server = await startRestServer()
  client = clientOf(server.baseUrl)
})
afterAll(() => server.stop())

const JobDetailResponseSchema = refineJobKeys(JobDetailSchema)

/** Everything the list endpoints hold, read once per test through the client itself. */
async function catalog(): Promise<{ services: Service[]; jobs: Job[] }> {
  const services = await client.services.listServices()
  const jobs = await client.jobs.listJobs({ query: { limit: 1000 } })
  if (services.status !== 200 || jobs.status !== 200) throw new Error('list endpoints failed')
  return { services: ServiceListSchema.parse(services.body).services, jobs: JobListSchema.parse(jobs.body).jobs }
}

test('default', async () => {
  const response = await client.health.getHealth()
  expect(response.status).toBe(200)
  const health = HealthSchema.parse(response.body)
  expect(health.ok).toBe(true)
  expect(health.syncing).toBe(false)
  expect(health.network).toBe('devnet')
  expect(health.chainId).toBe(31337)
})

describe('GET /v1/services', () => {
  test('every service, ascending by id, count = length', async () => {
    const response = await client.services.listServices()
    expect(response.status).toBe(200)
    if (response.status !== 200) return
    const list = ServiceListSchema.parse(response.body)
    expect(list.count).toBe(list.services.length)
    expect(list.count).toBeGreaterThan(0)
    const ids = list.services.map((service) => BigInt(service.serviceId))
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)))
  })
})

describe('GET /v1/services/:id', () => {
  test('each listed service answers with the same record', async () => {
    const { services } = await catalog()
    expect(services.length).toBeGreaterThan(0)
    for (const listed of services) {
      const response = await client.services.getService({ params: { id: listed.serviceId } })
      expect(response.status).toBe(200)
      expect(ServiceSchema.parse(response.body)).toEqual(listed)
    }
  })

  test.each(['0', '999999'])('absent id %s: 404 service_not_found', async (id) => {
    const response = await client.services.getService({ params: { id } })
    expect(response.status).toBe(404)
    const body = ErrorBodySchema.parse(response.body)
    expect(body.error.code).toBe('service_not_found')
    expect(body.error.message).toBe(`Service "${id}" could not be found.`)
  })

  test('malformed id: 400 invalid_parameter', async () => {
    const response = await client.services.getService({ params: { id: '01' } })
    expect(response.status).toBe(400)
    expect(ErrorBodySchema.parse(response.body).error.code).toBe('invalid_parameter')
  })
})

describe('GET /v1/jobs', () => {
  test('limit absent: at most 50, newest first, count = length', async () => {
    const response = await client.jobs.listJobs({ query: {} })
    expect(response.status).toBe(200)
    if (response.status !== 200) return
    const list = JobListSchema.parse(response.body)
    const stats = await client.stats.getStats()
    if (stats.status !== 200) throw new Error('stats failed')
    expect(list.count).toBe(list.jobs.length)
    expect(list.count).toBe(Math.min(50, stats.body.jobs.total))
    const ids = list.jobs.map((job) => BigInt(job.jobId))
    expect(ids).toEqual([...ids].sort((a, b) => (a > b ? -1 : 1)))
  })

  test.each([1, 2, 1000])('limit %s: that many at most, the newest', async (limit) => {
    const all = await catalog()
    const response = await client.jobs.listJobs({ query: { limit } })
    expect(response.status).toBe(200)
    if (response.status !== 200) return
    const list = JobListSchema.parse(response.body)
    expect(list.count).toBe(list.jobs.length)
    expect(list.jobs).toEqual(all.jobs.slice(0, limit))
  })

  test('list jobs carry no event history', async () => {
    const { jobs } = await catalog()
    expect(jobs.length).toBeGreaterThan(0)
    for (const job of jobs) expect(job).not.toHaveProperty('events')
  })

  test('malformed limit: 400 invalid_parameter naming limit and the allowed range', async () => {
    const response = await client.jobs.listJobs({ query: { limit: 1001 } })
    expect(response.status).toBe(400)
    const { error } = ErrorBodySchema.parse(response.body)
    expect(error.code).toBe('invalid_parameter')
    expect(error.message).toContain('"limit"')
    expect(error.message).toContain('"1001"')
    expect(error.message).toContain('from 1 to 1000')
  })
})

describe('GET /v1/jobs/:id', () => {
  test('each listed job answers with the same record plus its events, oldest first', async () => {
    const { jobs } = await catalog()
    expect(jobs.length).toBeGreaterThan(0)
    for (const listed of jobs) {
      const response = await client.jobs.getJob({ params: { id: listed.jobId } })
      expect(response.status).toBe(200)
      const { events, ...job } = JobDetailResponseSchema.parse(response.body)
      expect(job).toEqual(listed)
      expect(events[0]?.event).toBe('JobCreated')
      const order = events.map((event) => [BigInt(event.blockNumber), event.logIndex] as const)
      expect(order).toEqual([...order].sort(([blockA, logA], [blockB, logB]) => (blockA === blockB ? logA - logB : blockA < blockB ? -1 : 1)))
    }
  })

  test('attestation keys: all of them on settled jobs, none below Attested', async () => {
    const { jobs } = await catalog()
    // An expired job may never have been attested, so only Settled is sure to carry them.
    const settled = jobs.filter((job) => job.stateName === 'Settled')
    const below = jobs.filter((job) => job.state < attestedState)
    expect(settled.length).toBeGreaterThan(0)
    expect(below.length).toBeGreaterThan(0)
    for (const job of settled) for (const key of jobAttestationKeys) expect(job).toHaveProperty(key)
    for (const job of below) for (const key of jobAttestationKeys) expect(job).not.toHaveProperty(key)
  })

  test.each([
    ['an open dispute', seededJobs.disputed, ['JobDisputed', 'DisputeOpened']],
    ['a failed dispute (the job stays Disputed)', seededJobs.disputeFailed, ['JobDisputed', 'DisputeOpened', 'DisputeFailed']],
    ['a slash', seededJobs.slashed, ['JobDisputed', 'DisputeOpened', 'JobSlashed', 'Slashed']],
  ])('the arbiter’s events join the history of %s', async (_, id, disputeEvents) => {
    const response = await client.jobs.getJob({ params: { id } })
    expect(response.status).toBe(200)
    const { events, stateName } = JobDetailResponseSchema.parse(response.body)
    expect(events.map(({ event }) => event)).toEqual(['JobCreated', 'JobAttested', 'JobSettled', ...disputeEvents])
    expect(stateName).toBe(disputeEvents.includes('JobSlashed') ? 'Slashed' : 'Disputed')
    // The escrow and the arbiter log in the same transaction: the dispute, then the arbitration.
    const [disputed, opened] = events.slice(3)
    expect(opened?.transactionHash).toBe(disputed?.transactionHash)
    expect(opened!.logIndex).toBeGreaterThan(disputed!.logIndex)
  })

  test.each(['0', '999999'])('absent id %s: 404 job_not_found', async (id) => {
    const response = await client.jobs.getJob({ params: { id } })
    expect(response.status).toBe(404)
    const body = ErrorBodySchema.parse(response.body)
    expect(body.error.code).toBe('job_not_found')
    expect(body.error.message).toBe(`Job "${id}" could not be found.`)
  })
})

describe('GET /v1/sellers/:address', () => {
  test('a seller, addressed in any case: its services and jobs, newest first, address echoed EIP-55', async () => {
    const { services, jobs } = await catalog()
    const seller = services[0]?.seller
    if (seller === undefined) throw new Error('no service seeded')
    for (const address of [seller, seller.toLowerCase(), `0x${seller.slice(2).toUpperCase()}`]) {
      const response = await client.sellers.getSeller({ params: { address } })
      expect(response.status).toBe(200)
      const record = SellerSchema.parse(response.body)
      expect(record.seller).toBe(seller)
      expect(record.nextCursor).toBeNull()
      expect(record.services).toEqual(services.filter((service) => service.seller === seller).reverse())
      expect(record.jobs).toEqual(jobs.filter((job) => job.seller === seller))
    }
  })

  test('a seller with nothing: 200, empty arrays, address echoed EIP-55', async () => {
    const response = await client.sellers.getSeller({ params: { address: '0xabcdef0000000000000000000000000000000001' } })
    expect(response.status).toBe(200)
    expect(SellerSchema.parse(response.body)).toEqual({ seller: '0xaBCdEf0000000000000000000000000000000001', services: [], jobs: [], nextCursor: null })
  })

  test('malformed address: 400 invalid_parameter', async () => {
    const response = await client.sellers.getSeller({ params: { address: '0x1234' } })
    expect(response.status).toBe(400)
    const { error } = ErrorBodySchema.parse(response.body)
    expect(error.code).toBe('invalid_parameter')
    expect(error.message).toContain('"address"')
    expect(error.message).toContain('40 hex digits')
  })
})

describe('GET /v1/stats', () => {
  test('counts agree with the lists', async () => {
    const { services, jobs } = await catalog()
    const response = await client.stats.getStats()
    expect(response.status).toBe(200)
    const stats = StatsSchema.parse(response.body)
    expect(stats.services).toBe(services.length)
    expect(stats.jobs.total).toBe(jobs.length)
    expect(stats.jobs.settled + stats.jobs.expired + stats.jobs.slashed).toBeLessThanOrEqual(stats.jobs.total)
  })
})

describe('GET /healthz', () => {
  test('the health counters match the stats', async () => {
    const [health, stats] = await Promise.all([client.health.getHealth(), client.stats.getStats()])
    if (health.status !== 200 || stats.status !== 200) throw new Error('not healthy')
    const { counters } = HealthSchema.parse(health.body)
    expect(counters).toEqual({
      services: stats.body.services,
      jobs: stats.body.jobs.total,
      settledJobs: stats.body.jobs.settled,
      expiredJobs: stats.body.jobs.expired,
      slashedJobs: stats.body.jobs.slashed,
      totalSettledWei: stats.body.totalSettledWei,
    })
  })
})
