import { createPublicClient, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { createMarketDriver, type MarketDriver } from '../indexer/support/createMarketDriver.ts'
import { createTestIndexer, waitForHead, type TestIndexer } from '../indexer/support/createTestIndexer.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { httpRequest, type HttpRequestReturnType } from './httpRequest.ts'
import { listenApp, type RestServer } from './startRestServer.ts'

// ETags are built from the store's versions, not by hashing bodies: these tests change the chain
// (their own devnet) and check that a tag moves exactly when the answer does.

let devnet: StartDevnetReturnType
let node: PublicClient
let market: MarketDriver
let indexer: TestIndexer
let server: RestServer
let serviceId: bigint

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: false })
  node = createPublicClient({ transport: http(devnet.rpcUrl) })
  market = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
  serviceId = await market.registerService()
  indexer = createTestIndexer({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment, pollIntervalMs: 100 })
  await indexer.start()
  server = await listenApp({ store: indexer.store })
})

afterAll(async () => {
  await server?.stop()
  await indexer?.stop()
  await devnet?.stop()
})

const get = (path: string, headers: Record<string, string> = {}, baseUrl = server.baseUrl): Promise<HttpRequestReturnType> =>
  httpRequest(baseUrl, path, { headers })

/** Writes to the chain, then waits until the indexer has applied them. */
async function onChain<T>(write: () => Promise<T>): Promise<T> {
  const result = await write()
  await waitForHead(indexer, node)
  return result
}

async function tagOf(path: string, baseUrl = server.baseUrl): Promise<string> {
  const response = await get(path, {}, baseUrl)
  expect(response.status, path).toBe(200)
  const tag = response.headers.etag
  expect(tag).toMatch(/^W\/"[^"]+"$/)
  return String(tag)
}

describe('GET /v1/jobs/:id', () => {
  test("the tag stays while the job stands still, even as other jobs change, and moves when it settles", async () => {
    const jobId = await onChain(() => market.createJob({ serviceId }))
    const path = `/v1/jobs/${jobId}`
    const pending = await tagOf(path)
    expect((await get(path, { 'if-none-match': pending })).status).toBe(304)

    await onChain(() => market.createJob({ serviceId }))
    expect(await tagOf(path)).toBe(pending)
    expect((await get(path, { 'if-none-match': pending })).status).toBe(304)

    await onChain(() => market.settleJob(jobId))
    const settled = await get(path, { 'if-none-match': pending })
    expect(settled.status).toBe(200)
    expect(JSON.parse(settled.text)).toMatchObject({ jobId: String(jobId), stateName: 'Settled' })
    expect(settled.headers.etag).not.toBe(pending)
    expect((await get(path, { 'if-none-match': String(settled.headers.etag) })).status).toBe(304)
  })

  test('an unknown job has no tag, and If-None-Match: * does not turn its 404 into a 304', async () => {
    const response = await get('/v1/jobs/999999', { 'if-none-match': '*' })
    expect(response.status).toBe(404)
    expect(response.headers.etag).toBeUndefined()
  })
})

describe('store-wide answers', () => {
  // A seller with nothing: its (empty) record is still an answer of the whole store's version.
  test.each(['/v1/jobs', '/v1/jobs?limit=3', '/v1/services', '/v1/services/:id', '/v1/stats', '/v1/sellers/0x0000000000000000000000000000000000000001'])(
    '%s: the tag stays while nothing changes and moves with any new event',
    async (route) => {
      const path = route.replace(':id', String(serviceId))
      const before = await tagOf(path)
      expect(await tagOf(path)).toBe(before)
      await onChain(() => market.createJob({ serviceId }))
      const after = await get(path, { 'if-none-match': before })
      expect(after.status).toBe(200)
      expect(after.headers.etag).not.toBe(before)
    },
  )

  test('a seller record tagged before a new job of that seller is answered in full, with the job', async () => {
    const { seller } = JSON.parse((await get(`/v1/services/${serviceId}`)).text) as { seller: string }
    const path = `/v1/sellers/${seller}`
    const before = await tagOf(path)
    const jobId = await onChain(() => market.createJob({ serviceId }))
    const after = await get(path, { 'if-none-match': before })
    expect(after.status).toBe(200)
    expect((JSON.parse(after.text) as { jobs: { jobId: string }[] }).jobs[0]?.jobId).toBe(String(jobId))
  })
})

describe('If-None-Match', () => {
  test('a 304 has no body and keeps the tag, Vary and CORS headers', async () => {
    const tag = await tagOf('/v1/services')
    const response = await get('/v1/services', { 'if-none-match': tag, 'accept-encoding': 'gzip' })
    expect(response.status).toBe(304)
    expect(response.body.length).toBe(0)
    expect(response.headers.etag).toBe(tag)
    expect(response.headers.vary).toMatch(/accept-encoding/i)
    expect(response.headers['access-control-allow-origin']).toBe('*')
  })

  test('a list of tags, the tag without its W/ prefix, and * all match', async () => {
    const tag = await tagOf('/v1/stats')
    for (const ifNoneMatch of [`W/"other", ${tag}`, tag.slice(2), '*']) {
      expect((await get('/v1/stats', { 'if-none-match': ifNoneMatch })).status, ifNoneMatch).toBe(304)
    }
    expect((await get('/v1/stats', { 'if-none-match': 'W/"other"' })).status).toBe(200)
  })

  test('HEAD revalidates too', async () => {
    const tag = await tagOf('/v1/jobs')
    const head = await httpRequest(server.baseUrl, '/v1/jobs', { method: 'HEAD', headers: { 'if-none-match': tag } })
    expect(head.status).toBe(304)
    expect(head.headers.etag).toBe(tag)
  })

  test('a matching tag does not hide a bad parameter: the 400 comes first', async () => {
    const tag = await tagOf('/v1/jobs')
    const response = await get('/v1/jobs?limit=abc', { 'if-none-match': tag })
    expect(response.status).toBe(400)
    expect(response.headers.etag).toBeUndefined()
  })
})

test('/healthz carries no tag: its uptime changes by itself', async () => {
  const response = await get('/healthz')
  expect(response.headers.etag).toBeUndefined()
  expect((await get('/healthz', { 'if-none-match': '*' })).status).toBe(200)
})

test('a restarted server never confirms a tag of the previous one, though the store is the same', async () => {
  const path = `/v1/jobs/${await onChain(() => market.createJob({ serviceId }))}`
  const tag = await tagOf(path)
  const restarted = await listenApp({ store: indexer.store })
  try {
    const response = await get(path, { 'if-none-match': tag }, restarted.baseUrl)
    expect(response.status).toBe(200)
    expect(response.headers.etag).not.toBe(tag)
  } finally {
    await restarted.stop()
  }
})
