import { createPublicClient, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createMarketClient, type MarketClient } from '../../client/createMarketClient.ts'
import { BuyerSchema } from '../../contract/buyer.ts'
import { JobListSchema } from '../../contract/lists.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { createMarketDriver, type MarketDriver } from '../indexer/support/createMarketDriver.ts'
import { createTestIndexer, waitForHead, type TestIndexer } from '../indexer/support/createTestIndexer.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { readJobsFromChain, type ChainJob } from './readJobsFromChain.ts'
import { listenApp, type RestServer } from './startRestServer.ts'

// A cursor walk while the market goes on (the test's own devnet): jobs created between pages, and
// older ones settled, must not make a walk repeat or skip a job that was there when it started.

let devnet: StartDevnetReturnType
let node: PublicClient
let markets: [MarketDriver, MarketDriver]
let serviceIds: [bigint, bigint]
let indexer: TestIndexer
let server: RestServer
let client: MarketClient

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: false })
  node = createPublicClient({ transport: http(devnet.rpcUrl) })
  // Two sellers, each with its own buyer.
  markets = [
    createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment, accountIndex: 20 }),
    createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment, accountIndex: 22 }),
  ]
  serviceIds = [await markets[0].registerService(), await markets[1].registerService()]
  for (let index = 0; index < 9; index += 1) await createJob(index % 2)
  indexer = createTestIndexer({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment, pollIntervalMs: 100 })
  await indexer.start()
  server = await listenApp({ store: indexer.store })
  client = createMarketClient({ baseUrl: server.baseUrl })
})

afterAll(async () => {
  await server?.stop()
  await indexer?.stop()
  await devnet?.stop()
})

function createJob(market: number): Promise<bigint> {
  return (markets[market] as MarketDriver).createJob({ serviceId: serviceIds[market] as bigint })
}

const readChain = (): Promise<ChainJob[]> => readJobsFromChain({ rpcUrl: devnet.rpcUrl, escrow: devnet.deployment.escrow })
const idsOf = (jobs: readonly { jobId: string }[]): string[] => jobs.map(({ jobId }) => jobId)

/** Between two pages: new jobs for both sellers, and the oldest pending job settled; then indexed. */
async function marketMoves(): Promise<void> {
  await createJob(0)
  await createJob(1)
  const pending = (await readChain()).filter((job) => job.state === 0).at(-1)
  if (pending !== undefined) await markets[pending.serviceId === String(serviceIds[0]) ? 0 : 1].settleJob(BigInt(pending.jobId))
  await waitForHead(indexer, node)
}

type Page = { jobs: { jobId: string }[]; nextCursor: string | null }

/** Follows nextCursor to the end, letting the market move between pages. */
async function walkWhileMoving(readPage: (cursor: string | undefined) => Promise<Page>): Promise<string[]> {
  const ids: string[] = []
  let cursor: string | undefined
  do {
    const page = await readPage(cursor)
    ids.push(...idsOf(page.jobs))
    cursor = page.nextCursor ?? undefined
    if (cursor !== undefined) await marketMoves()
  } while (cursor !== undefined)
  return ids
}

test('default: an unfiltered walk holds every job there at its start once, newest first, however many arrive', async () => {
  await waitForHead(indexer, node)
  const atStart = await readChain()
  const ids = await walkWhileMoving(async (cursor) => JobListSchema.parse((await client.jobs.listJobs({ query: { limit: 2, cursor } })).body))
  expect(ids).toEqual(idsOf(atStart))
  // The jobs created meanwhile are on a new walk's first pages.
  const now = await readChain()
  expect(now.length).toBeGreaterThan(atStart.length)
  const fresh = JobListSchema.parse((await client.jobs.listJobs({ query: { limit: 1000 } })).body)
  expect(idsOf(fresh.jobs)).toEqual(idsOf(now))
})

test('a filtered walk (seller) and a buyer walk: the same, for their own jobs', async () => {
  await waitForHead(indexer, node)
  const atStart = await readChain()
  const seller = atStart.find((job) => job.serviceId === String(serviceIds[1]))?.seller as string
  const sellerIds = await walkWhileMoving(async (cursor) =>
    JobListSchema.parse((await client.jobs.listJobs({ query: { seller, limit: 1, cursor } })).body),
  )
  expect(sellerIds).toEqual(idsOf(atStart.filter((job) => job.seller === seller)))

  const beforeBuyerWalk = await readChain()
  const buyer = beforeBuyerWalk.find((job) => job.serviceId === String(serviceIds[0]))?.buyer as string
  const buyerIds = await walkWhileMoving(async (cursor) =>
    BuyerSchema.parse((await client.buyers.getBuyer({ params: { address: buyer }, query: { limit: 3, cursor } })).body),
  )
  expect(buyerIds).toEqual(idsOf(beforeBuyerWalk.filter((job) => job.buyer === buyer)))
})

test('after the walks, every filter still agrees with the chain (states changed on the way)', async () => {
  await waitForHead(indexer, node)
  const chain = await readChain()
  for (const state of [0, 3]) {
    const list = JobListSchema.parse((await client.jobs.listJobs({ query: { state, limit: 1000 } })).body)
    expect(idsOf(list.jobs), `state ${state}`).toEqual(idsOf(chain.filter((job) => job.state === state)))
  }
  const settledOfService = JobListSchema.parse(
    (await client.jobs.listJobs({ query: { serviceId: String(serviceIds[0]), state: 3, limit: 1000 } })).body,
  )
  expect(idsOf(settledOfService.jobs)).toEqual(idsOf(chain.filter((job) => job.serviceId === String(serviceIds[0]) && job.state === 3)))
})
