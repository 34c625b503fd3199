import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { createMarketDriver, type MarketDriver } from '../indexer/support/createMarketDriver.ts'
import { readChainMarket } from '../indexer/support/readChainMarket.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { startFaultProxy } from '../support/faultProxy.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { readServedMarket } from './support/readServedMarket.ts'
import { spawnServer, type SpawnedServer } from './support/spawnServer.ts'

let devnet: StartDevnetReturnType
let chain: PublicClient
let market: MarketDriver
let dataDir: string
let running: SpawnedServer | undefined

beforeAll(async () => {
  devnet = await startTestDevnet()
  chain = createPublicClient({ transport: http(devnet.rpcUrl) })
  market = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
  dataDir = await mkdtemp(join(tmpdir(), 'tee-market-kill-'))
})

afterAll(async () => {
  await running?.stop()
  await devnet?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

/** Small windows: the back-fill is many commits, so a kill lands between, and within, them. */
function serve({ rpcUrl = devnet.rpcUrl, logRange = ['--log-range', '3'], folder = dataDir }: { rpcUrl?: string; logRange?: string[]; folder?: string } = {}): SpawnedServer {
  running = spawnServer([
    '--network', 'devnet',
    '--rpc-url', rpcUrl,
    '--ws-rpc-url', 'none',
    ...deploymentArgv(devnet.deployment),
    '--port', '0',
    '--poll-interval', '100',
    '--metrics', 'off',
    ...logRange,
    '--data-dir', folder,
  ])
  return running
}

/** The cursor a start's `index loaded` line names; undefined when it loaded nothing. */
function loadedCursor(logs: string): string | undefined {
  return /"cursor":"(\d+)"[^\n]*index loaded/.exec(logs)?.[1]
}

/** A fixed sequence, so a failure can be run again as it was. */
function delays(seed: number, count: number, maxMs: number): number[] {
  let state = seed
  return Array.from({ length: count }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state % maxMs
  })
}

test('kill -9 at random points of the back-fill and of following: each restart resumes, and the index equals the chain', async () => {
  const serviceId = await market.registerService()
  // Back-fill: killed at random points after the start (loading, reading, committing).
  const resumedFrom: string[] = []
  for (const delayMs of delays(7, 4, 2_500)) {
    const server = serve()
    await server.url
    await new Promise((resolve) => setTimeout(resolve, delayMs))
    await server.kill9()
    resumedFrom.push(loadedCursor(server.logs()) ?? 'none')
  }
  // The kills did land within the back-fill: restarts resumed from different blocks.
  expect(new Set(resumedFrom).size).toBeGreaterThanOrEqual(2)
  // Following: jobs are created and settled while the server is killed at random points.
  for (const delayMs of delays(11, 3, 1_500)) {
    const server = serve()
    await server.ready()
    const jobId = await market.createJob({ serviceId })
    const settling = market.settleJob(jobId)
    await new Promise((resolve) => setTimeout(resolve, delayMs))
    await server.kill9()
    await settling
  }
  const server = serve()
  const url = await server.ready()
  expect(server.logs()).toContain('index loaded: resuming from its cursor')
  expect(await readServedMarket(url)).toEqual(await readChainMarket(chain, devnet.deployment))
  // Its done line counts the blocks it caught up on since the cursor it loaded, not the history.
  const cursor = loadedCursor(server.logs())
  const caughtUp = /"blocks":(\d+),[^\n]*"msg":"back-fill done"/.exec(server.logs())?.[1]
  expect({ cursor, caughtUp }).toEqual({ cursor: expect.any(String), caughtUp: expect.any(String) })
  expect(BigInt(caughtUp as string)).toBeLessThanOrEqual((await chain.getBlockNumber()) - BigInt(cursor as string))
})

test('the eth_getLogs limit a node named is kept with the index: a restart does not ask beyond it again', async () => {
  const proxy = await startFaultProxy({ target: devnet.rpcUrl, maxLogRange: 4n })
  const folder = await mkdtemp(join(tmpdir(), 'tee-market-limits-'))
  try {
    const first = serve({ rpcUrl: proxy.url, logRange: [], folder })
    await first.ready()
    await first.stop()
    const refusals = proxy.counts.rangeTooLarge
    expect(refusals).toBeGreaterThan(0)
    expect(first.logs()).toContain('accepts eth_getLogs over at most 4 blocks')

    await market.mine(20)
    const second = serve({ rpcUrl: proxy.url, logRange: [], folder })
    await second.ready()
    await second.stop()
    expect(proxy.counts.rangeTooLarge).toBe(refusals)
  } finally {
    await proxy.stop()
    await rm(folder, { recursive: true, force: true })
  }
})
