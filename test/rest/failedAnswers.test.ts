import { afterAll, beforeAll, expect, test } from 'vitest'
import { JobSchema, type Job } from '../../contract/job.ts'
import { createStore } from '../../server/store/createStore.ts'
import { httpRequest } from './httpRequest.ts'
import { listenApp, type RestServer } from './startRestServer.ts'

// In development mode every body is checked against the contract before it is sent; a store
// holding a record the contract rejects must give a 500 that reveals nothing and carries no ETag,
// though the route tagged the answer before building it.
const store = createStore({ pollIntervalMs: 3_000, chainId: 31337, network: 'devnet' })
const job: Job = JobSchema.parse({
  jobId: '1',
  serviceId: '1',
  buyer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  seller: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  amount: '1000000000000000',
  protocolFee: '50000000000000',
  createdAt: '1700000000',
  timeout: '1700086400',
  state: 0,
  stateName: 'Pending',
  inputCommitment: `0x${'1'.repeat(64)}`,
})
store.putJob({ jobId: 1n, job: { ...job, amount: 'not a number' } })

let server: RestServer
beforeAll(async () => {
  server = await listenApp({ store, mode: 'development' })
})
afterAll(() => server.stop())

test('a body the contract rejects: 500, no ETag, CORS kept', async () => {
  const response = await httpRequest(server.baseUrl, '/v1/jobs/1')
  expect(response.status).toBe(500)
  expect(JSON.parse(response.text)).toEqual({
    error: { code: 'internal_error', message: 'The server could not answer this request. Try again shortly.' },
  })
  expect(response.headers.etag).toBeUndefined()
  expect(response.headers['access-control-allow-origin']).toBe('*')
})
