import { createPublicClient, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCountingProxy, type StartCountingProxyReturnType } from '../../bench/startCountingProxy.ts'
import { loadConfig } from '../../config/loadConfig.ts'
import { describeFailure } from '../../server/indexer/describeFailure.ts'
import { startIndexer, type StartIndexerReturnType } from '../../server/indexer/startIndexer.ts'
import { createStore } from '../../server/store/createStore.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { startFaultProxy, type FaultProxy } from '../support/faultProxy.ts'
import { startLongHistoryDevnet, type StartLongHistoryDevnetReturnType } from '../support/startLongHistoryDevnet.ts'
import { waitForHead } from './support/createTestIndexer.ts'
import { readChainMarket } from './support/readChainMarket.ts'
import { snapshotStore } from './support/snapshotStore.ts'

/**
 * Issue 33, section 2: a full node (128 blocks of state, 2,000-block log ranges) that allows 50
 * calls a second, each member of a batch counted, and refuses a request over it whole with HTTP
 * 429, `Retry-After: 1` and one JSON-RPC error object, -32005 "limit exceeded", even to a batch.
 * No rate is configured: the indexer has to learn it from the refusals.
 */
const node = { stateBlocks: 128n, maxLogRange: 2_000n, callsPerSecond: 50 }

let devnet: StartLongHistoryDevnetReturnType
let fullNode: FaultProxy
let rateLimit: StartCountingProxyReturnType
let chain: PublicClient
let indexer: StartIndexerReturnType | undefined

beforeAll(async () => {
  devnet = await startLongHistoryDevnet({ blocks: 8_000n, bursts: 20 })
  fullNode = await startFaultProxy({ target: devnet.rpcUrl, stateBlocks: node.stateBlocks, maxLogRange: node.maxLogRange })
  rateLimit = await startCountingProxy({ target: fullNode.url, rateLimit: node.callsPerSecond })
  chain = createPublicClient({ transport: http(devnet.rpcUrl, { batch: true }) })
})

afterAll(async () => {
  await indexer?.stop()
  await rateLimit?.stop()
  await fullNode?.stop()
  await devnet?.stop()
})

test('a node that refuses over-quota batches with one 429 error object: its Retry-After waited out, its rate learned, the log range kept', async () => {
  const config = loadConfig({
    argv: ['--network', 'devnet', '--rpc-url', rateLimit.url, '--ws-rpc-url', 'none', ...deploymentArgv(devnet.deployment), '--poll-interval', '500'],
    env: {},
  })
  const errors: unknown[] = []
  const limits: bigint[] = []
  const startedAt = performance.now()
  indexer = startIndexer(config, { store: createStore({ pollIntervalMs: config.pollIntervalMs, chainId: config.chainId, network: config.network }), onError: (error) => errors.push(error), onLogRangeLimit: (blocks) => limits.push(blocks) })
  await indexer.start()
  const seconds = (performance.now() - startedAt) / 1000
  const [limiter] = indexer.rpcLimits()
  const counts = rateLimit.counts()
  console.log(
    `8,000 blocks through a node allowing ${node.callsPerSecond} calls/s with one-object 429s: ready in ${seconds.toFixed(1)} s; ` +
      `limiter ${JSON.stringify(limiter)}; node ${JSON.stringify({ ...counts, peakCallsPerSecond: rateLimit.peakCallsPerSecond() })}; ` +
      `log range ${indexer.logWindow.size()}; poll failures ${errors.length}`,
  )

  // Every refusal was read as a rate limit and waited out: no poll failed, none as an unknown RPC error.
  expect(errors.map((error) => describeFailure(error).message)).toEqual([])
  expect(counts.rateLimited).toBeGreaterThan(0)
  expect(limiter?.rateLimitedAnswers).toBeGreaterThanOrEqual(counts.rateLimited)
  // A rate learned, at most the node's; no batch went over it.
  expect(limiter?.configuredRate).toBeNull()
  expect(limiter?.rateInForce).toBeGreaterThan(0)
  expect(limiter?.rateInForce).toBeLessThanOrEqual(node.callsPerSecond)
  expect(counts.largestBatch).toBeLessThanOrEqual(node.callsPerSecond)
  // The log range is what the node said, not shrunk by the 429s' "limit exceeded".
  expect(limits).toEqual([node.maxLogRange])
  expect(indexer.logWindow.size()).toBe(node.maxLogRange)
  expect(fullNode.counts.stateUnavailable).toBe(0)

  await waitForHead(indexer, chain)
  expect(snapshotStore(indexer.store)).toEqual(await readChainMarket(chain, devnet.deployment))
  await indexer.stop()
  indexer = undefined
})
