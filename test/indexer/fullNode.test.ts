import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createPublicClient, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { loadConfig } from '../../config/loadConfig.ts'
import { startIndexer, type StartIndexerReturnType } from '../../server/indexer/startIndexer.ts'
import { createStore } from '../../server/store/createStore.ts'
import { getHealth } from '../../server/readers/index.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { startFaultProxy, type FaultProxy } from '../support/faultProxy.ts'
import { startLongHistoryDevnet, type StartLongHistoryDevnetReturnType } from '../support/startLongHistoryDevnet.ts'
import { createMarketDriver } from './support/createMarketDriver.ts'
import { waitForHead } from './support/createTestIndexer.ts'
import { readChainMarket } from './support/readChainMarket.ts'
import { snapshotStore } from './support/snapshotStore.ts'

/** A public full node: the state of its last 128 blocks, eth_getLogs over at most 2,000 blocks, 50 calls per second. */
const node = { stateBlocks: 128n, maxLogRange: 2_000n, rateLimit: 50 }

let devnet: StartLongHistoryDevnetReturnType
let proxy: FaultProxy
let chain: PublicClient
let indexer: StartIndexerReturnType | undefined

beforeAll(async () => {
  devnet = await startLongHistoryDevnet({ blocks: 2_000_000n, bursts: 20 })
  proxy = await startFaultProxy({ target: devnet.rpcUrl, ...node })
  chain = createPublicClient({ transport: http(devnet.rpcUrl, { batch: true }) })
})

afterAll(async () => {
  await indexer?.stop()
  await proxy?.stop()
  await devnet?.stop()
})

test('a 2,000,000-block history through a full node with limits: ready, equal to the chain, and following it', async () => {
  const config = loadConfig({
    argv: ['--network', 'devnet', '--rpc-url', proxy.url, '--ws-rpc-url', 'none', ...deploymentArgv(devnet.deployment), '--poll-interval', '500', '--rpc-rate-limit', String(node.rateLimit)],
    env: {},
  })
  const errors: unknown[] = []
  const limits: bigint[] = []
  const startedAt = performance.now()
  indexer = startIndexer(config, { store: createStore({ pollIntervalMs: config.pollIntervalMs, chainId: config.chainId, network: config.network }), onError: (error) => errors.push(error), onLogRangeLimit: (blocks) => limits.push(blocks) })
  await indexer.start()
  const seconds = (performance.now() - startedAt) / 1000
  const blocks = Number(devnet.head - BigInt(devnet.deployment.deployBlock) + 1n)
  const floor = blocks / Number(node.maxLogRange) / node.rateLimit
  console.log(
    `2,000,000 blocks through a full node (128 blocks of state, 2,000-block ranges, ${node.rateLimit} calls/s): ready in ${seconds.toFixed(1)} s, ` +
      `${proxy.calls.eth_getLogs} eth_getLogs, ${Object.values(proxy.calls).reduce((a, b) => a + b, 0)} calls; floor ${floor.toFixed(1)} s, ratio ${(seconds / floor).toFixed(2)}; calls by method ${JSON.stringify(proxy.calls)}`,
  )

  // Nothing older than the node keeps was asked for, and its limits were kept.
  expect(proxy.counts.stateUnavailable).toBe(0)
  expect(proxy.counts.rateLimited).toBe(0)
  expect(proxy.peakCallsPerSecond()).toBeLessThanOrEqual(node.rateLimit)
  expect(limits).toEqual([node.maxLogRange])
  expect(indexer.logWindow.limit()).toBe(node.maxLogRange)
  expect(errors).toEqual([])

  await waitForHead(indexer, chain)
  expect(getHealth(indexer.store).health).toMatchObject({ ok: true, problems: [] })
  expect(snapshotStore(indexer.store)).toEqual(await readChainMarket(chain, devnet.deployment))
  for (const burst of devnet.bursts) expect(indexer.store.job(burst.jobIds[0] as bigint)).toBeDefined()

  // And it follows: a new job, settled, some blocks on.
  const market = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
  const serviceId = await market.registerService()
  // Indexed before the 300 blocks bury it: its state, read at its own block, would be older than
  // the node's 128 blocks once they are mined, and how soon a poll comes is the host's speed.
  await waitForHead(indexer, chain)
  await market.mine(300)
  const jobId = await market.createJob({ serviceId })
  await market.settleJob(jobId)
  await waitForHead(indexer, chain)
  expect(indexer.store.job(jobId)?.job.stateName).toBe('Settled')
  expect(snapshotStore(indexer.store)).toEqual(await readChainMarket(chain, devnet.deployment))
  expect(proxy.counts.stateUnavailable).toBe(0)
  await indexer.stop()
  indexer = undefined
})

test('npm run serve through the same node: its start-up check and its back-fill together keep to the rate', async () => {
  const rateLimitedBefore = proxy.counts.rateLimited
  const argv = ['--network', 'devnet', '--rpc-url', proxy.url, '--ws-rpc-url', 'none', ...deploymentArgv(devnet.deployment), '--port', '0', '--rpc-rate-limit', String(node.rateLimit)]
  const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../server/main.ts', import.meta.url)), ...argv], {
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = ''
      server.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        const match = /serving on (http:\/\/\S+)/.exec(out)
        if (match !== null) resolve(match[1] as string)
      })
      server.once('exit', (code) => reject(new Error(`npm run serve exited with ${code}`)))
    })
    for (const deadline = Date.now() + 120_000; (await fetch(`${url}/readyz`)).status !== 200; ) {
      if (Date.now() > deadline) throw new Error('not ready in 120 s')
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(proxy.counts.rateLimited - rateLimitedBefore).toBe(0)
    expect(proxy.peakCallsPerSecond()).toBeLessThanOrEqual(node.rateLimit)
    expect(proxy.counts.stateUnavailable).toBe(0)
  } finally {
    server.kill('SIGTERM')
  }
})
