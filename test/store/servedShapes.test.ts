import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { JobSchema, type Job, type JobEvent } from '../../contract/job.ts'
import { createStore } from '../../server/store/createStore.ts'
import { httpRequest } from '../rest/httpRequest.ts'
import { listenApp, type RestServer } from '../rest/startRestServer.ts'

// The list answers serve the store's records themselves and the detail is put together per call:
// over a real socket, a list entry must carry exactly the Job keys and the detail its events too.
const seller = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const job: Job = JobSchema.parse({
  jobId: '1',
  serviceId: '1',
  buyer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  seller,
  amount: '1000000000000000',
  protocolFee: '50000000000000',
  createdAt: '1700000000',
  timeout: '1700086400',
  state: 3,
  stateName: 'Settled',
  inputCommitment: `0x${'01'.repeat(32)}`,
  outputRootHash: `0x${'02'.repeat(32)}`,
  chatId: `0x${'03'.repeat(32)}`,
  attestationText: '0x00',
  attestationSignature: '0x00',
  attestation: null,
})
const created: JobEvent = {
  event: 'JobCreated',
  blockNumber: '5',
  transactionHash: `0x${'04'.repeat(32)}`,
  logIndex: 0,
  timestamp: '1700000000',
}

const store = createStore({ pollIntervalMs: 3_000, chainId: 31337, network: 'devnet' })
store.putJob({ jobId: 1n, job: { ...job } })
store.addJobEvent({ jobId: 1n, event: { ...created } })

describe.each(['production', 'development'] as const)('%s mode', (mode) => {
  let server: RestServer
  beforeAll(async () => {
    server = await listenApp({ store, mode })
  })
  afterAll(() => server.stop())

  const get = async (path: string): Promise<unknown> => {
    const response = await httpRequest(server.baseUrl, path)
    expect(response.status).toBe(200)
    return JSON.parse(response.text)
  }

  test('GET /v1/jobs: the entry is the Job, without events', async () => {
    expect(await get('/v1/jobs')).toStrictEqual({ count: 1, jobs: [job], nextCursor: null })
  })

  test('GET /v1/sellers/:address: the entry is the Job, without events', async () => {
    expect(await get(`/v1/sellers/${seller}`)).toStrictEqual({ seller, services: [], jobs: [job], nextCursor: null })
  })

  test('GET /v1/buyers/:address: the entry is the Job, without events', async () => {
    expect(await get(`/v1/buyers/${job.buyer.toLowerCase()}`)).toStrictEqual({ buyer: job.buyer, jobs: [job], nextCursor: null })
  })

  test('GET /v1/jobs/:id: the Job with its events', async () => {
    expect(await get('/v1/jobs/1')).toStrictEqual({ ...job, events: [created] })
  })
})
