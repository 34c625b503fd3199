import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { createMarketDriver } from './support/createMarketDriver.ts'
import { createTestIndexer, type TestIndexer } from './support/createTestIndexer.ts'

let devnet: StartDevnetReturnType
let indexer: TestIndexer | undefined

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: false })
})

afterAll(async () => {
  await indexer?.stop()
  await devnet?.stop()
})

test('a start block the chain has not reached yet: ready at once, without errors, and indexing from it once mined', async () => {
  const node = createPublicClient({ transport: http(devnet.rpcUrl) })
  const startBlock = (await node.getBlockNumber()) + 1n
  indexer = createTestIndexer({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment, startBlock, pollIntervalMs: 100 })
  await indexer.start()
  expect(indexer.errors).toEqual([])
  expect(indexer.store.serviceList()).toEqual([])

  const serviceId = await createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment }).registerService()
  const deadline = Date.now() + 60_000
  while (indexer.store.service(serviceId) === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  expect(indexer.store.service(serviceId)?.serviceId).toBe(serviceId.toString())
  expect(indexer.store.sync.cursor?.number).toBeGreaterThanOrEqual(startBlock)
  expect(indexer.errors).toEqual([])
})
