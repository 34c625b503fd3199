import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { getHealth } from '../../server/readers/index.ts'
import { startFaultProxy, type FaultProxy } from '../support/faultProxy.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { createMarketDriver } from './support/createMarketDriver.ts'
import { createTestIndexer, waitForHead, type TestIndexer } from './support/createTestIndexer.ts'
import { readChainMarket } from './support/readChainMarket.ts'
import { snapshotStore } from './support/snapshotStore.ts'

/** Jobs created while the faults go on (LONG_FAULT_JOBS for a longer run). */
const liveJobs = Number(process.env.LONG_FAULT_JOBS ?? 300)
const clientTimeoutMs = 1_000
const faultKinds = ['drop', 'status429', 'status500', 'delay', 'rangeTooLarge', 'emptyLogs', 'partialLogs', 'undecodableLog', 'otherChain', 'lagging'] as const

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

test('one long run of every fault at once, on every path: no record lost or stale', { timeout: 600_000 }, async () => {
  const { rpcUrl, deployment } = devnet
  const node = createPublicClient({ transport: http(rpcUrl, { batch: true }) })
  const market = createMarketDriver({ rpcUrl, deployment })
  proxy = await startFaultProxy({
    target: rpcUrl,
    faultRate: 0.08,
    delayMs: clientTimeoutMs + 200,
    maxLogRange: 50n,
    logFaultRate: 0.25,
    lagRate: 0.2,
    lagBlocks: 3n,
    seed: 21,
  })
  const repairs: string[] = []
  indexer = createTestIndexer({
    rpcUrl: proxy.url,
    deployment,
    pollIntervalMs: 150,
    timeoutMs: clientTimeoutMs,
    retryDelayMs: 20,
    maxRetryDelayMs: 300,
    newHeads: { url: rpcUrl.replace('http://', 'ws://') },
    onNewHeadsChange: () => undefined,
    onRepair: ({ kind, id, reason }) => repairs.push(`${kind} ${id}: ${reason}`),
    selfCheckJobs: 8,
  })
  const violations: string[] = []
  let okSamples = 0
  const sampler = setInterval(() => {
    const { ok } = getHealth(indexer.store)
    if (ok) okSamples += 1
    const { chainMismatch, selfCheck } = indexer.store.sync
    if (ok && (chainMismatch !== undefined || selfCheck.unrepaired > 0)) violations.push(`${chainMismatch?.message} ${selfCheck.unrepaired}`)
  }, 5)

  let chainSwitches = 0
  try {
    // Back-fill under faults, then polling and new heads under the same faults.
    await indexer.start()
    const serviceId = await market.registerService()
    const created: bigint[] = []
    for (let round = 0; round < liveJobs; round += 1) {
      created.push(await market.createJob({ serviceId }))
      if (round % 2 === 1) await market.settleJob(created[round - 1] as bigint)
      if (round % 25 === 24) {
        // Another chain for a moment behind the same URL.
        chainSwitches += 1
        proxy.switchChain({ target: rpcUrl, chainId: 1 })
        await market.createJob({ serviceId })
        await new Promise((resolve) => setTimeout(resolve, 300))
        proxy.switchChain(undefined)
      }
    }
    // How many requests the indexer sends, and how wide its windows grow, depends on timing (the
    // dice are seeded, the traffic is not): new jobs, and a gap wider than the node's log range,
    // keep it reading until every kind of fault has met it.
    for (let round = 0; round < 40 && faultKinds.some((kind) => proxy.counts[kind] === 0); round += 1) {
      await market.createJob({ serviceId })
      if (proxy.counts.rangeTooLarge === 0) await market.mine(120)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    proxy.setFaultRate(0)
    proxy.setLogFaultRate(0)
    proxy.setLagRate(0)
    await waitForHead(indexer, node, { timeoutMs: 60_000 })
    await market.mine(1)
    await waitForHead(indexer, node, { timeoutMs: 60_000 })
  } finally {
    clearInterval(sampler)
  }

  const served = snapshotStore(indexer.store)
  const chain = await readChainMarket(node, deployment)
  const servedJobs = new Map(served.jobs.map((job) => [job.jobId, JSON.stringify(job)]))
  const servedServices = new Map(served.services.map((service) => [service.serviceId, JSON.stringify(service)]))
  const lost =
    chain.jobs.filter((job) => !servedJobs.has(job.jobId)).length +
    chain.services.filter((service) => !servedServices.has(service.serviceId)).length
  const stale =
    chain.jobs.filter((job) => servedJobs.has(job.jobId) && servedJobs.get(job.jobId) !== JSON.stringify(job)).length +
    chain.services.filter((service) => servedServices.has(service.serviceId) && servedServices.get(service.serviceId) !== JSON.stringify(service)).length
  const { counts } = proxy
  console.log(
    [
      `long fault run: ${chain.jobs.length} jobs (${liveJobs + chainSwitches} created live), ${chain.services.length} services`,
      `faults injected: ${JSON.stringify({ ...counts, chainSwitches })} over ${proxy.requests()} requests`,
      `failed polls retried: ${indexer.errors.length} (${summarize(indexer.errors)}); self-check repairs: ${repairs.length}`,
      `at the end: ${lost} records lost, ${stale} stale; health ok in ${okSamples} samples, wrongly ok in ${violations.length}`,
    ].join('\n'),
  )
  expect({ lost, stale }).toEqual({ lost: 0, stale: 0 })
  expect(served).toEqual(chain)
  expect(violations).toEqual([])
  for (const kind of faultKinds) expect(counts[kind], kind).toBeGreaterThan(0)
})

function summarize(errors: unknown[]): string {
  const byCode = new Map<string, number>()
  for (const error of errors) {
    const code = (error as { code?: unknown }).code
    const key = typeof code === 'string' ? code : (error as Error).name
    byCode.set(key, (byCode.get(key) ?? 0) + 1)
  }
  return [...byCode].map(([code, count]) => `${code} ${count}`).join(', ')
}
