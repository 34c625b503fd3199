import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { openPgliteDatabase } from '../../server/durable/openPgliteDatabase.ts'
import { openDurableStore, type DurableStore } from '../../server/durable/openDurableStore.ts'
import { StoredMarketMismatchError, DataDirLockedError } from '../../errors/durable.ts'
import { createMarketDriver } from '../indexer/support/createMarketDriver.ts'
import { createTestIndexer, waitForHead, type TestIndexer } from '../indexer/support/createTestIndexer.ts'
import { readChainMarket } from '../indexer/support/readChainMarket.ts'
import { snapshotStore } from '../indexer/support/snapshotStore.ts'
import { spawn } from 'node:child_process'
import { startTestDevnet } from '../support/startTestDevnet.ts'

let devnet: StartDevnetReturnType
let chain: PublicClient
let dataDir: string

beforeAll(async () => {
  devnet = await startTestDevnet()
  chain = createPublicClient({ transport: http(devnet.rpcUrl) })
  dataDir = await mkdtemp(join(tmpdir(), 'tee-market-data-'))
})

afterAll(async () => {
  await devnet?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

const config = () => ({ ...devnet.deployment, network: 'devnet' as const, pollIntervalMs: 100 })

/** The durable store in `dataDir`, an indexer on it, and the JSON-RPC methods it sends. */
async function startDurableIndexer({ onNotice, onReorg }: { onNotice?: (message: string) => void; onReorg?: (reorg: { depth: bigint }) => void } = {}): Promise<{ durable: DurableStore; indexer: TestIndexer; methods: string[] }> {
  const durable = await openDurableStore({ database: await openPgliteDatabase(dataDir), config: config(), onNotice })
  const methods: string[] = []
  const indexer = createTestIndexer({
    onReorg,
    rpcUrl: devnet.rpcUrl,
    deployment: devnet.deployment,
    pollIntervalMs: 100,
    store: durable.store,
    commit: durable.committer.commit,
    onFetchRequest: (_request, init) => {
      for (const { method } of [JSON.parse(init.body as string) as { method: string }].flat()) methods.push(method)
    },
  })
  return { durable, indexer, methods }
}

async function stop({ durable, indexer }: { durable: DurableStore; indexer: TestIndexer }): Promise<void> {
  await indexer.stop()
  await durable.database.close()
}

test('a restart loads the index from the data dir, resumes from its cursor and equals the chain', async () => {
  const first = await startDurableIndexer()
  expect(first.durable.loaded.cursor).toBeUndefined()
  await first.indexer.start()
  await waitForHead(first.indexer, chain)
  const before = snapshotStore(first.indexer.store)
  expect(before).toEqual(await readChainMarket(chain, devnet.deployment))
  const fullLogs = first.methods.filter((method) => method === 'eth_getLogs').length
  await stop(first)

  // While it is down: a new job, settled.
  const market = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
  const serviceId = await market.registerService()
  const jobId = await market.createJob({ serviceId })
  await market.settleJob(jobId)

  const second = await startDurableIndexer()
  expect(second.durable.loaded.jobs).toBe(before.jobs.length)
  // Served as it was before reading anything: the counters come back with the records.
  expect(snapshotStore(second.durable.store)).toEqual(before)
  await second.indexer.start()
  await waitForHead(second.indexer, chain)
  expect(snapshotStore(second.indexer.store)).toEqual(await readChainMarket(chain, devnet.deployment))
  expect(second.indexer.store.job(jobId)?.job.stateName).toBe('Settled')
  expect(second.indexer.errors).toEqual([])
  const resumeLogs = second.methods.filter((method) => method === 'eth_getLogs').length
  expect(resumeLogs).toBeLessThanOrEqual(3)
  expect(resumeLogs).toBeLessThan(fullLogs + 3)
  await stop(second)
})

test('a data dir is used by one process at a time, and never for another market', async () => {
  // Another process holds the data dir: this one is refused, naming it.
  const holder = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `
    import { openPgliteDatabase } from ${JSON.stringify(new URL('../../server/durable/openPgliteDatabase.ts', import.meta.url).pathname)}
    await openPgliteDatabase(${JSON.stringify(dataDir)})
    console.log('holding')
    setInterval(() => {}, 1000)
  `], { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('holding') && resolve())
      holder.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)))
    })
    const refusal = await openPgliteDatabase(dataDir).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refusal).toBeInstanceOf(DataDirLockedError)
    expect((refusal as Error).message).toContain(`process ${holder.pid}`)
  } finally {
    holder.kill('SIGKILL')
    await new Promise((resolve) => holder.once('exit', resolve))
  }

  // Killed, it leaves its lock file behind: the next process takes the dir over.
  const other = await openPgliteDatabase(dataDir)
  try {
    const refusal = await openDurableStore({ database: other, config: { ...config(), escrow: '0x000000000000000000000000000000000000dEaD' } }).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refusal).toBeInstanceOf(StoredMarketMismatchError)
    expect((refusal as Error).message).toMatch(/holds the index of chain 31337 .*not of the configured chain 31337 .*escrow 0x000000000000000000000000000000000000dEaD/)
  } finally {
    await other.close()
  }
})

test('a reorg while stopped: the restart finds the stored cursor off the chain and rolls back to the common ancestor', async () => {
  const market = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
  const serviceId = await market.registerService()
  const fork = await market.snapshot()
  const orphan = await market.createJob({ serviceId })
  await market.settleJob(orphan)
  const first = await startDurableIndexer()
  await first.indexer.start()
  await waitForHead(first.indexer, chain)
  expect(first.indexer.store.job(orphan)?.job.stateName).toBe('Settled')
  await stop(first)

  // Another branch, longer than the first: the orphan job's id now holds another job, never settled.
  await market.revert(fork)
  await market.mine(3)
  const replacement = await market.createJob({ serviceId, amount: 12_345n })
  expect(replacement).toBe(orphan)

  const reorgs: bigint[] = []
  const second = await startDurableIndexer({ onReorg: ({ depth }) => reorgs.push(depth) })
  expect(second.durable.store.job(orphan)?.job.stateName).toBe('Settled')
  await second.indexer.start()
  await waitForHead(second.indexer, chain)
  expect(reorgs.length).toBeGreaterThanOrEqual(1)
  expect(second.indexer.store.job(orphan)?.job).toMatchObject({ stateName: 'Pending', amount: '12345' })
  expect(snapshotStore(second.indexer.store)).toEqual(await readChainMarket(chain, devnet.deployment))
  await stop(second)

  // And what was written after the rollback is what the next start loads.
  const third = await startDurableIndexer()
  expect(snapshotStore(third.durable.store)).toEqual(await readChainMarket(chain, devnet.deployment))
  await third.durable.database.close()
  await third.indexer.stop()
})

test('a data dir written by another layout is rebuilt from the chain, with a log line saying so', async () => {
  const database = await openPgliteDatabase(dataDir)
  await database.query(`UPDATE tee_market_meta SET value = '0' WHERE key = 'schema'`)
  await database.close()
  const notices: string[] = []
  const rebuilt = await startDurableIndexer({ onNotice: (message) => notices.push(message) })
  expect(notices).toEqual([expect.stringMatching(/has schema 0, this version writes \d+: rebuilding it from the chain/)])
  expect(rebuilt.durable.loaded).toMatchObject({ jobs: 0, services: 0, cursor: undefined })
  await rebuilt.indexer.start()
  await waitForHead(rebuilt.indexer, chain)
  expect(snapshotStore(rebuilt.indexer.store)).toEqual(await readChainMarket(chain, devnet.deployment))
  await stop(rebuilt)
})
