import { PassThrough } from 'node:stream'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import type { Config } from '../../config/ConfigSchema.ts'
import { loadConfig } from '../../config/loadConfig.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { startHostedMcpServer } from '../../mcp/hosted/startHostedMcpServer.ts'
import { startRestIndexer, type StartRestIndexerReturnType } from '../../server/startRestIndexer.ts'
import { createLogger } from '../../platform/logging/createLogger.ts'
import { getHealth } from '../../server/readers/getHealth.ts'
import { getReadiness } from '../../server/readers/getReadiness.ts'
import { createStore } from '../../server/store/createStore.ts'
import { createMarketDriver, type MarketDriver } from '../indexer/support/createMarketDriver.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { startFaultProxy, type FaultProxy } from '../support/faultProxy.ts'
import { scrapeMetrics } from '../support/scrapeMetrics.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { startSlowRpcProxy, type SlowRpcProxy } from './slowRpcProxy.ts'

/**
 * The widest eth_getLogs the node behind the proxies accepts, so the back-fill of the seeded market
 * takes many windows (hardhat_mine is no way to lengthen it: hardhat misses the logs of blocks
 * after mined ones in range queries).
 */
const maxLogRange = 4n

let devnet: StartDevnetReturnType
let rangeCap: FaultProxy
let proxy: SlowRpcProxy
let market: MarketDriver

function configFor(rpcUrl: string, extra: string[] = []): Config {
  const { deployment } = devnet
  return loadConfig({
    argv: [
      '--network', 'devnet',
      '--rpc-url', rpcUrl,
      '--ws-rpc-url', 'none',
      ...deploymentArgv(deployment),
      '--poll-interval', '200',
      '--port', '0',
      '--mcp-port', '0',
      '--host', '127.0.0.1',
      ...extra,
    ],
    env: {},
  })
}

function sample(samples: Map<string, number>, series: string): number {
  const value = samples.get(series)
  if (value === undefined) throw new Error(`no sample ${series} in ${[...samples.keys()].filter((key) => key.startsWith(series.split('{')[0]!)).join(', ')}`)
  return value
}

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: true })
  market = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
  rangeCap = await startFaultProxy({ target: devnet.rpcUrl, maxLogRange })
  proxy = await startSlowRpcProxy({ target: rangeCap.url, delayMs: 40 })
})

afterAll(async () => {
  await proxy?.close()
  await rangeCap?.stop()
  await devnet?.stop()
})

describe('readiness', () => {
  const block = (number: bigint) => ({ number, hash: `0x${number.toString(16).padStart(64, '0')}` as const })

  test('ready once back-filled with a recent poll; the reason otherwise', () => {
    const store = createStore({ pollIntervalMs: 1_000, chainId: 31337, network: 'devnet', now: () => 0 })
    expect(getReadiness(store, { now: 0 })).toMatchObject({ ready: false, reason: 'backfilling' })
    store.advance(block(10n))
    store.polled({ headBlock: 12n, at: 1_000 })
    expect(getReadiness(store, { now: 1_500 })).toEqual({ ready: true, lagBlocks: 2 })
    expect(getReadiness(store, { now: 4_001 })).toEqual({
      ready: false,
      reason: 'stale',
      message: 'The last successful poll was 3.0 s ago, more than 3 poll intervals (3 s): the node may be unreachable.',
      lagBlocks: 2,
    })
    // /healthz keeps its own record: the same rule, no reason.
    expect(getHealth(store, { now: 4_001 }).ok).toBe(false)
  })
})

describe('metrics', () => {
  let server: StartRestIndexerReturnType

  afterAll(async () => {
    await server?.stop()
  })

  test('scraped during and after a back-fill, the indexer figures move as the chain does', async () => {
    const node = createPublicClient({ transport: http(devnet.rpcUrl) })
    const head = await node.getBlockNumber()
    server = await startRestIndexer(configFor(proxy.url), { mode: 'production', logger: false })

    // During: part of the way, with the head known.
    let during = new Map<string, number>()
    await until(async () => {
      during = await scrapeMetrics(server.url)
      const ratio = during.get('indexer_backfill_ratio') ?? 0
      return ratio > 0 && ratio < 1 && during.has('indexer_cursor_block')
    }, 'a scrape in the middle of the back-fill')
    expect(sample(during, 'indexer_backfilled')).toBe(0)
    expect(sample(during, 'indexer_head_block')).toBe(Number(head))
    expect(sample(during, 'indexer_cursor_block')).toBeLessThan(Number(head))
    expect(sample(during, 'indexer_lag_blocks')).toBe(Number(head) - sample(during, 'indexer_cursor_block'))
    expect(sample(during, 'indexer_rpc_request_duration_seconds_count{method="eth_getLogs",outcome="ok"}')).toBeGreaterThan(0)
    expect(sample(during, 'indexer_log_range_blocks{figure="window"}')).toBe(Number(maxLogRange))
    expect(sample(during, 'indexer_backfill_blocks_per_second')).toBeGreaterThan(0)
    expect(sample(during, 'indexer_backfill_eta_seconds')).toBeGreaterThanOrEqual(0)
    expect(sample(during, `indexer_rpc_rate_limited_calls{node="${proxy.url}",outcome="rate_limited"}`)).toBe(0)
    // No rate configured, none learned: unlimited has no figure.
    expect([...during.keys()].filter((series) => series.startsWith('indexer_rpc_rate_limit_per_second'))).toEqual([])
    const notReady = await fetch(`${server.url}/readyz`)
    expect(notReady.status).toBe(503)
    expect(await notReady.json()).toMatchObject({ ready: false, reason: 'backfilling', message: expect.stringMatching(/^The initial back-fill has not reached the head/) })

    // After: at the head, every seeded job counted as the chain has it.
    await until(async () => (await fetch(`${server.url}/readyz`)).status === 200, 'readiness')
    const after = await scrapeMetrics(server.url)
    const jobsOnChain = Number(await node.readContract({ address: devnet.deployment.escrow, abi: escrowAbi, functionName: 'nextJobId' })) - 1
    expect(sample(after, 'indexer_backfill_ratio')).toBe(1)
    expect(sample(after, 'indexer_backfill_eta_seconds')).toBe(0)
    expect(sample(after, 'indexer_log_range_blocks{figure="limit"}')).toBe(Number(maxLogRange))
    expect(sample(after, 'indexer_backfilled')).toBe(1)
    expect(sample(after, 'indexer_cursor_block')).toBe(Number(head))
    expect(sample(after, 'indexer_lag_blocks')).toBe(0)
    expect(sample(after, 'indexer_store_records{kind="job"}')).toBe(jobsOnChain)
    expect(sample(after, 'indexer_polls_total{outcome="ok"}')).toBeGreaterThanOrEqual(1)
    expect(sample(after, 'indexer_polls_total{outcome="failed"}')).toBe(0)
    expect(sample(after, 'indexer_reorgs_total')).toBe(0)
    expect(sample(after, 'indexer_self_check{figure="unrepaired"}')).toBe(0)
    expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(0)

    // A settlement on the chain raises the settled counter and moves the cursor.
    const serviceId = await market.registerService()
    const jobId = await market.createJob({ serviceId })
    await market.settleJob(jobId)
    const settledHead = await node.getBlockNumber({ cacheTime: 0 })
    let settled = new Map<string, number>()
    await until(async () => {
      settled = await scrapeMetrics(server.url)
      return (settled.get('indexer_cursor_block') ?? 0) >= Number(settledHead)
    }, 'the cursor at the settlement block')
    expect(sample(settled, 'indexer_market_events{counter="settledJobs"}')).toBe(sample(after, 'indexer_market_events{counter="settledJobs"}') + 1)
    expect(sample(settled, 'indexer_store_records{kind="job"}')).toBe(jobsOnChain + 1)
    expect(sample(settled, 'indexer_polls_total{outcome="ok"}')).toBeGreaterThan(sample(after, 'indexer_polls_total{outcome="ok"}'))
    expect(sample(settled, 'indexer_settled_wei')).toBeGreaterThan(sample(after, 'indexer_settled_wei'))
  })

  test('a reorg raises the reorg counter and records its rollback depth', async () => {
    const before = await scrapeMetrics(server.url)
    const serviceId = await market.registerService()
    await until(async () => (await scrapeMetrics(server.url)).get('indexer_cursor_block') === Number(await market.blockNumber()), 'the cursor at the head')
    const fork = await market.snapshot()
    // Branch A: one block with a job, indexed; then branch B from the fork with another job in its place.
    await market.createJob({ serviceId, amount: 10_000_000_000_000_000n })
    const heightA = await market.blockNumber()
    await until(async () => (await scrapeMetrics(server.url)).get('indexer_cursor_block') === Number(heightA), 'the cursor on branch A')
    await market.revert(fork)
    await market.createJob({ serviceId, amount: 30_000_000_000_000_000n })
    await market.mine(1)
    const heightB = await market.blockNumber()
    let after = new Map<string, number>()
    await until(async () => {
      after = await scrapeMetrics(server.url)
      return after.get('indexer_cursor_block') === Number(heightB)
    }, 'the cursor on branch B')
    expect(sample(after, 'indexer_reorgs_total') - sample(before, 'indexer_reorgs_total')).toBe(1)
    expect(sample(after, 'indexer_rollback_depth_blocks_count') - sample(before, 'indexer_rollback_depth_blocks_count')).toBe(1)
    expect(sample(after, 'indexer_rollback_depth_blocks_sum') - sample(before, 'indexer_rollback_depth_blocks_sum')).toBe(1)
  })

  test('the REST latency histogram counts requests by route template and status', async () => {
    const before = await scrapeMetrics(server.url)
    const route = (status: number) => `http_request_duration_seconds_count{route="/v1/jobs/:id",method="GET",status="${status}"}`
    for (const id of ['1', '2', '3']) expect((await fetch(`${server.url}/v1/jobs/${id}`)).status).toBe(200)
    expect((await fetch(`${server.url}/v1/jobs/999999`)).status).toBe(404)
    const after = await scrapeMetrics(server.url)
    expect(sample(after, route(200)) - (before.get(route(200)) ?? 0)).toBe(3)
    expect(sample(after, route(404)) - (before.get(route(404)) ?? 0)).toBe(1)
    // Never the raw URL: one series per route, whatever ids clients send.
    expect([...after.keys()].some((key) => key.includes('/v1/jobs/1"'))).toBe(false)
    expect(sample(after, 'http_request_duration_seconds_bucket{le="+Inf",route="/v1/jobs/:id",method="GET",status="200"}')).toBe(sample(after, route(200)))
  })

  test('/metrics is not in openapi.json', async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(document.paths)).not.toContain('/metrics')
    expect(Object.keys(document.paths)).not.toContain('/readyz')
  })

  test('the hosted MCP server counts tool calls by tool and outcome, and its requests', async () => {
    const mcp = await startHostedMcpServer(configFor(devnet.rpcUrl), { store: server.store })
    try {
      const client = new Client({ name: 'metrics-test', version: '1.0.0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${mcp.url}/mcp`)))
      await client.callTool({ name: 'get_job', arguments: { jobId: '1' } })
      await client.callTool({ name: 'get_job', arguments: { jobId: '999999' } })
      await client.callTool({ name: 'list_services', arguments: {} })
      await client.close()
      const samples = await scrapeMetrics(mcp.url)
      expect(sample(samples, 'mcp_tool_call_duration_seconds_count{tool="get_job",outcome="ok"}')).toBe(1)
      expect(sample(samples, 'mcp_tool_call_duration_seconds_count{tool="get_job",outcome="error"}')).toBe(1)
      expect(sample(samples, 'mcp_tool_call_duration_seconds_count{tool="list_services",outcome="ok"}')).toBe(1)
      expect(sample(samples, 'http_request_duration_seconds_count{route="/mcp",method="POST",status="200"}')).toBeGreaterThanOrEqual(4)
    } finally {
      await mcp.close()
    }
  })

  test('--metrics <port> moves /metrics off the API port; --metrics off serves none', async () => {
    const moved = await startRestIndexer(configFor(devnet.rpcUrl, ['--metrics', '0']), { mode: 'production', logger: false })
    try {
      expect(moved.metricsUrl).toBeDefined()
      expect((await fetch(`${moved.url}/metrics`)).status).toBe(404)
      expect(sample(await scrapeMetrics(moved.metricsUrl!), 'process_resident_memory_bytes')).toBeGreaterThan(0)
    } finally {
      await moved.stop()
    }
    const off = await startRestIndexer(configFor(devnet.rpcUrl, ['--metrics', 'off']), { mode: 'production', logger: false })
    try {
      expect(off.metricsUrl).toBeUndefined()
      expect((await fetch(`${off.url}/metrics`)).status).toBe(404)
    } finally {
      await off.stop()
    }
  })
})

test('the JSON log of a start, a back-fill and a stop has the start line, progress lines and the stop line', async () => {
  const stream = new PassThrough()
  let text = ''
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const logger = createLogger({ level: 'info', stream, base: { service: 'rest' } })
  const config = configFor(proxy.url)
  const server = await startRestIndexer(config, { mode: 'production', logger, progressIntervalMs: 200 })
  await until(async () => (await fetch(`${server.url}/readyz`)).status === 200, 'readiness')
  await server.stop()

  const lines = text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
  expect(lines.every((line) => typeof line['time'] === 'number' && typeof line['level'] === 'number' && line['service'] === 'rest')).toBe(true)
  const messages = lines.map((line) => line['msg'])
  const start = lines.find((line) => line['msg'] === 'rest indexer started')
  expect(start).toMatchObject({
    level: 30,
    version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    network: 'devnet',
    chainId: devnet.deployment.chainId,
    registry: devnet.deployment.registry,
    escrow: devnet.deployment.escrow,
    url: server.url,
    port: new URL(server.url).port,
    metrics: `${server.url}/metrics`,
  })
  const progress = lines.filter((line) => line['msg'] === 'back-fill progress')
  expect(progress.length).toBeGreaterThanOrEqual(2)
  for (const line of progress) {
    expect(line).toMatchObject({ component: 'indexer', blocksTotal: expect.any(Number), percent: expect.any(Number), blocksPerSecond: expect.any(Number), jobs: expect.any(Number) })
    // The node limits in force; no rate is set.
    expect(line).toMatchObject({ logRange: expect.any(Number), nodes: [{ url: proxy.url, callsPerSecond: null, rateLimitedAnswers: 0 }] })
    expect(line['blocksDone'] as number).toBeLessThanOrEqual(line['blocksTotal'] as number)
  }
  // The range cap behind the proxies named its limit at the first window: the window is that wide since.
  expect(progress.at(-1)).toMatchObject({ logRange: Number(maxLogRange), logRangeLimit: Number(maxLogRange) })
  const done = progress.map((line) => line['blocksDone'] as number)
  expect(done).toEqual([...done].sort((a, b) => a - b))
  expect(done.at(-1)).toBeGreaterThan(done[0]!)
  expect(lines.find((line) => line['msg'] === 'back-fill done')).toMatchObject({ blocks: expect.any(Number), jobs: expect.any(Number) })
  expect(messages.at(-1)).toBe('rest indexer stopped')
  // Access logs are off by default.
  expect(lines.some((line) => line['req'] !== undefined)).toBe(false)
})
