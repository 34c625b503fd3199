import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { startFaultProxy, type FaultProxy } from '../support/faultProxy.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { createMarketDriver } from './support/createMarketDriver.ts'
import { createTestIndexer, waitForHead, type TestIndexer } from './support/createTestIndexer.ts'
import { readChainMarket } from './support/readChainMarket.ts'
import { snapshotStore } from './support/snapshotStore.ts'

const clientTimeoutMs = 1_000

let devnet: StartDevnetReturnType
let proxy: FaultProxy
let indexer: TestIndexer

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: true })
})

afterAll(async () => {
  await indexer?.stop()
  await proxy?.stop()
  await devnet?.stop()
})

const faultKinds = ['drop', 'status429', 'status500', 'delay', 'rangeTooLarge'] as const

test('through a node that drops, throttles, fails, stalls and refuses wide ranges, nothing is lost', async () => {
  const { rpcUrl, deployment } = devnet
  const node = createPublicClient({ transport: http(rpcUrl, { batch: true }) })
  const market = createMarketDriver({ rpcUrl, deployment })
  // Under 10 blocks: the first window (createScanWindow) is refused for its range already.
  proxy = await startFaultProxy({ target: rpcUrl, faultRate: 0.25, maxLogRange: 5n, delayMs: clientTimeoutMs + 500, seed: 7 })
  indexer = createTestIndexer({
    rpcUrl: proxy.url,
    deployment,
    pollIntervalMs: 200,
    timeoutMs: clientTimeoutMs,
    retryDelayMs: 50,
    maxRetryDelayMs: 400,
  })

  const startedAt = performance.now()
  await indexer.start()
  console.log(`back-fill through the faulty proxy: ${(performance.now() - startedAt).toFixed(0)} ms`)

  // Live traffic while faults go on.
  const serviceId = await market.registerService()
  const live = [await market.createJob({ serviceId }), await market.createJob({ serviceId })]
  await market.settleJob(live[0] as bigint)

  // An outage: every request fails while transactions keep landing.
  proxy.setFaultRate(1)
  const duringOutage = [await market.createJob({ serviceId }), await market.createJob({ serviceId })]
  await market.settleJob(duringOutage[0] as bigint)
  await market.settleJob(live[1] as bigint)
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  proxy.setFaultRate(0.25)
  await market.createJob({ serviceId })
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  // How many requests the indexer sends depends on timing: new blocks keep it reading until every
  // kind of fault has met it (the dice are seeded, the traffic is not).
  for (let block = 0; block < 100 && faultKinds.some((kind) => proxy.counts[kind] === 0); block += 1) {
    await market.mine(1)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }

  proxy.setFaultRate(0)
  await waitForHead(indexer, node)
  const chain = await readChainMarket(node, deployment)
  expect(snapshotStore(indexer.store)).toEqual(chain)

  console.log(
    `faults injected: ${JSON.stringify(proxy.counts)} over ${proxy.requests()} requests; ${indexer.errors.length} failed polls retried`,
  )
  for (const kind of faultKinds) expect(proxy.counts[kind]).toBeGreaterThan(0)
  expect(indexer.errors.length).toBeGreaterThan(0)
})
