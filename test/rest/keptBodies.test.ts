import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { JobSchema, type Job } from '../../contract/job.ts'
import { JobListSchema } from '../../contract/lists.ts'
import { SellerSchema } from '../../contract/seller.ts'
import { createStore } from '../../server/store/createStore.ts'
import { httpRequest } from './httpRequest.ts'
import { listenApp, type RestServer } from './startRestServer.ts'

// Large bodies (a seller's record, a list of 1,000 jobs) are kept per URL and store version once
// built, compressed forms included. Here a store filled by hand grows between requests, and every
// answer must still be the current one, whatever the encoding.
const seller = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const store = createStore({ pollIntervalMs: 3_000, chainId: 31337, network: 'devnet' })

function jobOf(id: number): Job {
  return JobSchema.parse({
    jobId: String(id),
    serviceId: '1',
    buyer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    seller,
    amount: '1000000000000000',
    protocolFee: '50000000000000',
    createdAt: String(1_700_000_000 + id),
    timeout: String(1_700_086_400 + id),
    state: 0,
    stateName: 'Pending',
    inputCommitment: `0x${id.toString(16).padStart(64, '0')}`,
  })
}

let lastJobId = 0
function addJob(): number {
  lastJobId += 1
  store.putJob({ jobId: BigInt(lastJobId), job: jobOf(lastJobId) })
  return lastJobId
}

for (let index = 0; index < 1_000; index++) addJob()

let server: RestServer
beforeAll(async () => {
  server = await listenApp({ store })
})
afterAll(() => server.stop())

const decoders = {
  identity: (body: Buffer) => body,
  gzip: gunzipSync,
  br: brotliDecompressSync,
} as const

/** The answer in each encoding, decoded; all must be the same text under the same tag. */
async function readAll(path: string): Promise<{ text: string; etag: string }> {
  const answers = await Promise.all(
    Object.entries(decoders).map(async ([encoding, decode]) => {
      const response = await httpRequest(server.baseUrl, path, { headers: { 'accept-encoding': encoding } })
      expect(response.status).toBe(200)
      expect(response.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding)
      return { text: decode(response.body).toString('utf8'), etag: String(response.headers.etag) }
    }),
  )
  const [first] = answers
  if (first === undefined) throw new Error('no answer')
  for (const answer of answers) expect(answer).toEqual(first)
  return first
}

describe.each([
  { path: `/v1/sellers/${seller}`, newestOf: (text: string) => SellerSchema.parse(JSON.parse(text)).jobs[0]?.jobId },
  { path: '/v1/jobs?limit=1000', newestOf: (text: string) => JobListSchema.parse(JSON.parse(text)).jobs[0]?.jobId },
])('$path', ({ path, newestOf }) => {
  test('the same body in every encoding, built again after the store changes', async () => {
    const first = await readAll(path)
    expect(first.text.length).toBeGreaterThan(256 * 1024)
    expect(newestOf(first.text)).toBe(String(lastJobId))
    expect(await readAll(path)).toEqual(first)

    const added = addJob()
    const second = await readAll(path)
    expect(second.etag).not.toBe(first.etag)
    expect(newestOf(second.text)).toBe(String(added))
  })
})

test('every spelling of a seller address gets the same record, the address EIP-55', async () => {
  const checksummed = await readAll(`/v1/sellers/${seller}`)
  const lowerCase = await readAll(`/v1/sellers/${seller.toLowerCase()}`)
  expect(SellerSchema.parse(JSON.parse(checksummed.text)).seller).toBe(seller)
  expect(SellerSchema.parse(JSON.parse(lowerCase.text)).seller).toBe(seller)
  expect(lowerCase.text).toBe(checksummed.text)
})
