import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { JobListSchema } from '../../contract/lists.ts'
import { HealthSchema } from '../../contract/health.ts'
import { JobSchema } from '../../contract/job.ts'
import { ChainIdMismatchError } from '../../errors/chain.ts'
import { createStore } from '../../server/store/createStore.ts'
import { httpRequest } from './httpRequest.ts'
import { listenApp, type RestServer } from './startRestServer.ts'

// The seeded devnet holds fewer than 50 jobs and is always in sync, so the default and the upper
// bound of `limit`, and /healthz before any sync, are checked here on a store filled by hand and
// never polled (the HTTP layer is the same; no chain is involved).
const jobCount = 1100

const store = createStore({ pollIntervalMs: 3_000, chainId: 31337, network: 'devnet' })
for (let id = 1; id <= jobCount; id++) {
  const job = JobSchema.parse({
    jobId: String(id),
    serviceId: '1',
    buyer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    seller: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    amount: '1000000000000000',
    protocolFee: '50000000000000',
    createdAt: String(1_700_000_000 + id),
    timeout: String(1_700_086_400 + id),
    state: 0,
    stateName: 'Pending',
    inputCommitment: `0x${id.toString(16).padStart(64, '0')}`,
  })
  // A key the contract does not declare: the response serializers must never let it out.
  const withInternals = id === jobCount ? { ...job, internalNote: 'not for the wire' } : job
  store.putJob({ jobId: BigInt(id), job: withInternals })
}

describe.each(['production', 'development'] as const)('%s mode', (mode) => {
  let server: RestServer
  beforeAll(async () => {
    server = await listenApp({ store, mode })
  })
  afterAll(() => server.stop())

  const list = async (query: string) => {
    const response = await httpRequest(server.baseUrl, `/v1/jobs${query}`)
    expect(response.status).toBe(200)
    return JobListSchema.parse(JSON.parse(response.text))
  }

  test('limit absent: the 50 newest', async () => {
    const { count, jobs } = await list('')
    expect(count).toBe(50)
    expect(jobs.map((job) => job.jobId)).toEqual(Array.from({ length: 50 }, (_, index) => String(jobCount - index)))
  })

  test('limit=1000: the 1000 newest', async () => {
    const { count, jobs } = await list('?limit=1000')
    expect(count).toBe(1000)
    expect(jobs[0]?.jobId).toBe(String(jobCount))
    expect(jobs.at(-1)?.jobId).toBe(String(jobCount - 999))
  })

  test('limit=1001: 400', async () => {
    const response = await httpRequest(server.baseUrl, '/v1/jobs?limit=1001')
    expect(response.status).toBe(400)
  })

  test('keys the contract does not declare are not sent', async () => {
    for (const path of [`/v1/jobs/${jobCount}`, '/v1/jobs', '/v1/sellers/0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC']) {
      const response = await httpRequest(server.baseUrl, path)
      expect(response.status).toBe(200)
      expect(response.text).toContain(`"jobId":"${jobCount}"`)
      expect(response.text).not.toContain('internalNote')
    }
  })

  test('/healthz before the back-fill: 503 with the same record, ok false', async () => {
    const response = await httpRequest(server.baseUrl, '/healthz')
    expect(response.status).toBe(503)
    expect(response.headers['access-control-allow-origin']).toBe('*')
    const health = HealthSchema.parse(JSON.parse(response.text))
    expect(health.ok).toBe(false)
    expect(health.syncing).toBe(true)
    expect(health.counters.jobs).toBe(jobCount)
  })
})

describe('the node serves another chain', () => {
  const wrongChain = createStore({ pollIntervalMs: 3_000, chainId: 31337, network: 'devnet' })
  wrongChain.polled({ headBlock: 10n, at: Date.now() })
  let server: RestServer
  beforeAll(async () => {
    server = await listenApp({ store: wrongChain, mode: 'production' })
  })
  afterAll(() => server.stop())

  test('/v1/* answer 503 chain_id_mismatch, /healthz 503 says why; both come back by themselves', async () => {
    const before = await httpRequest(server.baseUrl, '/v1/stats')
    expect(before.status).toBe(200)
    wrongChain.servingChain(new ChainIdMismatchError({ expected: 31337, actual: 1 }))
    const message = 'The node serves chain "1", but the configuration expects chain "31337".'
    for (const path of ['/v1/services', '/v1/services/1', '/v1/jobs', '/v1/jobs/1', '/v1/sellers/0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', '/v1/stats']) {
      const response = await httpRequest(server.baseUrl, path, { headers: { 'if-none-match': before.headers.etag as string } })
      expect({ path, status: response.status, body: JSON.parse(response.text) }).toEqual({
        path,
        status: 503,
        body: { error: { code: 'chain_id_mismatch', message } },
      })
    }
    const health = await httpRequest(server.baseUrl, '/healthz')
    expect(health.status).toBe(503)
    expect(HealthSchema.parse(JSON.parse(health.text))).toMatchObject({ ok: false, problems: [{ code: 'chain_id_mismatch', message }] })

    wrongChain.servingChain(undefined)
    expect((await httpRequest(server.baseUrl, '/v1/stats')).status).toBe(200)
    expect((await httpRequest(server.baseUrl, '/healthz')).status).toBe(200)
  })
})
