import { createPublicClient, http } from 'viem'
import { getBlock, getBlockNumber } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { JobNotFoundError, ServiceNotFoundError } from '../../errors/notFound.ts'
import { applyLogs } from '../../server/indexer/applyLogs.ts'
import { readWindow } from '../../server/indexer/readWindow.ts'
import { getHealth, getJob, getSeller, getService, listJobs, listServices } from '../../server/readers/index.ts'
import { createStore } from '../../server/store/createStore.ts'
import { startFaultProxy } from '../support/faultProxy.ts'
import { createTestIndexer, type TestIndexer } from './support/createTestIndexer.ts'
import { readChainMarket } from './support/readChainMarket.ts'
import { snapshotStore, type MarketSnapshot } from './support/snapshotStore.ts'

const { rpcUrl, deployment } = inject('devnet')
const node = createPublicClient({ transport: http(rpcUrl, { batch: true }) })
let chain: MarketSnapshot
let indexer: TestIndexer

beforeAll(async () => {
  chain = await readChainMarket(node, deployment)
  indexer = createTestIndexer({ rpcUrl, deployment, pollIntervalMs: 200 })
  const startedAt = performance.now()
  await indexer.start()
  console.log(`back-fill of the seeded market: ${(performance.now() - startedAt).toFixed(0)} ms`)
})

afterAll(async () => {
  await indexer.stop()
})

test('default', () => {
  expect(chain.jobs.length).toBeGreaterThan(0)
  expect(snapshotStore(indexer.store)).toEqual(chain)
  expect(indexer.errors).toEqual([])
})

describe('restart', () => {
  test('a new indexer from scratch serves the same market', async () => {
    const restarted = createTestIndexer({ rpcUrl, deployment, pollIntervalMs: 200 })
    await restarted.start()
    await restarted.stop()
    expect(snapshotStore(restarted.store)).toEqual(chain)
  })
})

/** A new store, and the seeded market from its deploy block to the head read as one window. */
async function readWholeMarket() {
  const store = createStore({ pollIntervalMs: 200, chainId: deployment.chainId, network: 'devnet' })
  const read = await readWindow(node, {
    deployment,
    fromBlock: BigInt(deployment.deployBlock),
    toBlock: await getBlockNumber(node, { cacheTime: 0 }),
    creations: store.sync.creations,
    firstBlockTimestamp: (await getBlock(node, { blockNumber: BigInt(deployment.deployBlock) })).timestamp,
  })
  return { store, read }
}

describe('applyLogs', () => {
  test('a window applied in slices: between them readers see whole blocks up to the cursor, and the end is the market', async () => {
    const { store, read } = await readWholeMarket()
    const seen: { cursor: bigint; events: number; jobs: number; creationsNext: bigint | undefined }[] = []
    let applying = true
    const watch = (): void => {
      const cursor = store.sync.cursor
      if (cursor !== undefined) {
        const events = store.jobIds.reduce((sum, jobId) => sum + (store.job(jobId)?.events.length ?? 0), 0)
        seen.push({ cursor: cursor.number, events, jobs: store.jobIds.length, creationsNext: store.sync.creations.next.job })
      }
      if (applying) setImmediate(watch)
    }
    setImmediate(watch)
    await applyLogs(store, read, { logsPerSlice: 5 })
    applying = false
    expect(snapshotStore(store)).toEqual(chain)

    const cursors = [...new Set(seen.map(({ cursor }) => cursor))]
    expect(cursors.length).toBeGreaterThan(3)
    for (const { cursor, events, jobs, creationsNext } of seen) {
      // Every job event of the blocks up to the cursor, none after; every job created up to it.
      const jobLogs = read.logs.filter((log) => log.blockNumber <= cursor && 'jobId' in log.args)
      expect(events).toBe(jobLogs.length)
      const created = jobLogs.filter((log) => log.eventName === 'JobCreated').length
      expect(jobs).toBe(created)
      expect(creationsNext).toBe(BigInt(created) + 1n)
    }
  })

  test('applying the same range twice changes nothing', async () => {
    const { store, read } = await readWholeMarket()
    await applyLogs(store, read)
    const once = snapshotStore(store)
    expect(once).toEqual(chain)
    await applyLogs(store, read)
    expect(snapshotStore(store)).toEqual(once)
    expect(store.counters.jobs).toBe(chain.jobs.length)
  })
})

describe('scan window', () => {
  test('a node refusing ranges over 10 blocks still gets the whole market indexed', async () => {
    const proxy = await startFaultProxy({ target: rpcUrl, maxLogRange: 10n })
    const narrow = createTestIndexer({ rpcUrl: proxy.url, deployment, pollIntervalMs: 200 })
    try {
      await narrow.start()
      expect(snapshotStore(narrow.store)).toEqual(chain)
      expect(proxy.counts.rangeTooLarge).toBeGreaterThan(0)
      console.log(`range refusals before the window settled: ${proxy.counts.rangeTooLarge}`)
    } finally {
      await narrow.stop()
      await proxy.stop()
    }
  })
})

describe('readers', () => {
  test('listServices: every service, ascending', () => {
    const { count, services } = listServices(indexer.store)
    expect(count).toBe(chain.services.length)
    expect(services.map(({ serviceId }) => serviceId)).toEqual(chain.services.map(({ serviceId }) => serviceId))
  })

  test('getService: unknown id', () => {
    expect(() => getService(indexer.store, { serviceId: 999_999n })).toThrowError(ServiceNotFoundError)
    expect(() => getService(indexer.store, { serviceId: 7_000n })).toThrowErrorMatchingInlineSnapshot(
      `[ServiceNotFoundError: Service "7000" could not be found.]`,
    )
  })

  test('listJobs: newest first, default 50, limit', () => {
    const newestFirst = [...chain.jobs].reverse().map(({ events: _, ...job }) => job)
    expect(newestFirst.length).toBeLessThan(50)
    expect(listJobs(indexer.store)).toEqual({ count: newestFirst.length, jobs: newestFirst, nextCursor: null })
    expect(listJobs(indexer.store, { limit: 3 })).toEqual({ count: 3, jobs: newestFirst.slice(0, 3), nextCursor: expect.any(String) })
  })

  test('getJob: detail with events, unknown id', () => {
    const last = chain.jobs.at(-1)
    expect(getJob(indexer.store, { jobId: BigInt(last?.jobId ?? 0) })).toEqual(last)
    expect(() => getJob(indexer.store, { jobId: 0n })).toThrowError(JobNotFoundError)
    expect(() => getJob(indexer.store, { jobId: 0n })).toThrowErrorMatchingInlineSnapshot(`[JobNotFoundError: Job "0" could not be found.]`)
  })

  test('getSeller: case-insensitive match, address echoed in EIP-55, newest first', () => {
    const seller = chain.services[0]?.seller as string
    const requested = seller.toLowerCase()
    const record = getSeller(indexer.store, { address: requested })
    expect(record.seller).toBe(seller)
    expect(record.nextCursor).toBeNull()
    expect(record.services.map(({ serviceId }) => serviceId)).toEqual(
      chain.services.filter((service) => service.seller === seller).map(({ serviceId }) => serviceId).reverse(),
    )
    expect(record.jobs.map(({ jobId }) => jobId)).toEqual(
      chain.jobs.filter((job) => job.seller === seller).map(({ jobId }) => jobId).reverse(),
    )
    expect(getSeller(indexer.store, { address: '0x000000000000000000000000000000000000dead' })).toEqual({
      seller: '0x000000000000000000000000000000000000dEaD',
      services: [],
      jobs: [],
      nextCursor: null,
    })
  })

  test('getHealth: ok after the back-fill while polls succeed, stale after 3 poll intervals', () => {
    const { ok, health } = getHealth(indexer.store)
    expect(ok).toBe(true)
    expect(health).toMatchObject({ ok: true, syncing: false, chainId: deployment.chainId, network: 'devnet' })
    expect(health.counters).toEqual({
      services: chain.stats.services,
      jobs: chain.stats.jobs.total,
      settledJobs: chain.stats.jobs.settled,
      expiredJobs: chain.stats.jobs.expired,
      slashedJobs: chain.stats.jobs.slashed,
      totalSettledWei: chain.stats.totalSettledWei,
    })
    const lastPollAt = indexer.store.sync.lastPollAt as number
    expect(getHealth(indexer.store, { now: lastPollAt + 3 * 200 + 1 }).ok).toBe(false)
  })

  test('getHealth: not ok before the back-fill', () => {
    const store = createStore({ pollIntervalMs: 200, chainId: deployment.chainId, network: 'devnet' })
    expect(getHealth(store)).toMatchObject({ ok: false, health: { ok: false, syncing: true, lastIndexedBlock: '0' } })
  })
})
