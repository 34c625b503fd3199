import { createPublicClient, http, parseEther } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { getJob } from '../../server/readers/index.ts'
import { startFaultProxy, type FaultProxy } from '../support/faultProxy.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { createMarketDriver } from './support/createMarketDriver.ts'
import { createTestIndexer, waitForHead, type TestIndexer } from './support/createTestIndexer.ts'
import { readChainMarket } from './support/readChainMarket.ts'
import { snapshotStore } from './support/snapshotStore.ts'

let devnet: StartDevnetReturnType
let indexer: TestIndexer
let proxy: FaultProxy

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: false })
})

afterAll(async () => {
  await indexer?.stop()
  await proxy?.stop()
  await devnet?.stop()
})

test('a reorg to a different chain of the same height: no stale job, no double count', async () => {
  const { rpcUrl, deployment } = devnet
  const node = createPublicClient({ transport: http(rpcUrl, { batch: true }) })
  const market = createMarketDriver({ rpcUrl, deployment })
  const serviceId = await market.registerService()
  const kept = await market.createJob({ serviceId })

  // The indexer reads through a proxy that can blind it, so it sees branch A, then nothing, then
  // branch B at the same height: only the cursor hash can tell the chains apart.
  proxy = await startFaultProxy({ target: rpcUrl, kinds: ['status500'] })
  indexer = createTestIndexer({ rpcUrl: proxy.url, deployment, pollIntervalMs: 100, retryDelayMs: 50, maxRetryDelayMs: 100 })
  await indexer.start()
  const fork = await market.snapshot()
  const forkBlock = await market.blockNumber()

  // Branch A: kept settles, two more jobs, one of them settled.
  await market.settleJob(kept)
  const orphan = await market.createJob({ serviceId, amount: parseEther('0.02') })
  const alsoOrphan = await market.createJob({ serviceId, amount: parseEther('0.03') })
  await market.settleJob(orphan)
  await waitForHead(indexer, node)
  const branchA = await readChainMarket(node, deployment)
  expect(snapshotStore(indexer.store)).toEqual(branchA)
  expect(branchA.stats.jobs.settled).toBe(2)
  const heightA = await market.blockNumber()

  // Branch B from the fork, as high as A: one job with a different amount, settled; kept stays
  // Pending.
  proxy.setFaultRate(1)
  await market.revert(fork)
  const replacement = await market.createJob({ serviceId, amount: parseEther('0.05') })
  await market.settleJob(replacement)
  await market.mine(Number(heightA - (await market.blockNumber())))
  expect(await market.blockNumber()).toBe(heightA)
  expect(await market.blockNumber()).toBeGreaterThan(forkBlock)
  // Branch B can be built faster than one poll: unblind only once the indexer has been refused.
  await expect.poll(() => proxy.counts.status500, { interval: 50 }).toBeGreaterThan(0)
  proxy.setFaultRate(0)

  await waitForHead(indexer, node)
  const branchB = await readChainMarket(node, deployment)
  expect(snapshotStore(indexer.store)).toEqual(branchB)
  expect(replacement).toBe(orphan)
  expect(() => getJob(indexer.store, { jobId: alsoOrphan })).toThrow(`Job "${alsoOrphan}" could not be found.`)
  expect(getJob(indexer.store, { jobId: kept }).stateName).toBe('Pending')
  expect(getJob(indexer.store, { jobId: replacement }).amount).toBe(parseEther('0.05').toString())
  expect(branchB.stats).toEqual({
    services: 1,
    jobs: { total: 2, settled: 1, expired: 0, slashed: 0 },
    totalSettledWei: parseEther('0.05').toString(),
  })
})
