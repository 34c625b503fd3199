import { createPublicClient, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../../devnet/startDevnet.ts'
import { ChainIdMismatchError } from '../../../errors/chain.ts'
import { getHealth, getJob, getStats, listServices } from '../../../server/readers/index.ts'
import { startFaultProxy, type FaultProxy, type LogFaultKind, type StartFaultProxyParameters } from '../../support/faultProxy.ts'
import { startTestDevnet } from '../../support/startTestDevnet.ts'
import { createMarketDriver, type MarketDriver } from './createMarketDriver.ts'
import { createTestIndexer, waitForHead, type CreateTestIndexerParameters, type TestIndexer } from './createTestIndexer.ts'
import { readChainMarket } from './readChainMarket.ts'
import { snapshotStore } from './snapshotStore.ts'

export type DefineIntegrityTestsParameters = {
  /** The chain the indexer reads, with the deployment's market on it. */
  startDevnet: () => Promise<StartDevnetReturnType>
  /** What every proxy in front of the node also does: the kind of node it is (e.g. a full node's limits). */
  nodeKind?: Partial<StartFaultProxyParameters>
}

/**
 * The lying-node tests: empty, partial and undecodable answers in back-fill and at the head, a
 * lagging backend, another chain, a record that differs, and the calls a poll costs. Defined once,
 * run against each kind of node (integrity.test.ts: an archive node; integrityFullNode.test.ts: a
 * full node with limits, in front of a long history).
 */
export function defineIntegrityTests({ startDevnet, nodeKind = {} }: DefineIntegrityTestsParameters): void {

  let devnet: StartDevnetReturnType
  let node: PublicClient
  let market: MarketDriver
  let serviceId: bigint
  const running: { stop: () => Promise<void> }[] = []

  beforeAll(async () => {
    devnet = await startDevnet()
    node = createPublicClient({ transport: http(devnet.rpcUrl, { batch: true }) })
    market = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
    serviceId = await market.registerService()
  })

  afterAll(async () => {
    for (const item of running.reverse()) await item.stop()
    await devnet?.stop()
  })

  type Watched = TestIndexer & {
    /** Health samples that said ok while the indexer knew the store differs or the chain is wrong. */
    violations: string[]
    repairs: string[]
  }

  async function proxyFor(options: Partial<Parameters<typeof startFaultProxy>[0]> = {}): Promise<FaultProxy> {
    const proxy = await startFaultProxy({ target: devnet.rpcUrl, ...nodeKind, ...options })
    running.push(proxy)
    return proxy
  }

  /** An indexer over `url` whose health is sampled every 5 ms, the way a monitor would see it. */
  function watchedIndexer(url: string, options: Partial<CreateTestIndexerParameters> = {}): Watched {
    const repairs: string[] = []
    const indexer = createTestIndexer({
      rpcUrl: url,
      deployment: devnet.deployment,
      pollIntervalMs: 100,
      retryDelayMs: 20,
      maxRetryDelayMs: 200,
      timeoutMs: 2_000,
      onRepair: ({ kind, id, reason }) => repairs.push(`${kind} ${id}: ${reason}`),
      // A self-check round every poll, as at the default 3 s poll.
      selfCheckIntervalMs: 0,
      ...options,
    })
    const violations: string[] = []
    const sampler = setInterval(() => {
      const { ok, health } = getHealth(indexer.store)
      const { chainMismatch, selfCheck } = indexer.store.sync
      if (ok && (chainMismatch !== undefined || selfCheck.unrepaired > 0)) violations.push(JSON.stringify(health))
    }, 5)
    const watched: Watched = {
      ...indexer,
      violations,
      repairs,
      stop: async () => {
        clearInterval(sampler)
        await indexer.stop()
      },
    }
    running.push(watched)
    return watched
  }

  /** Every service and job equals direct reads, counters equal the events', and health was never wrongly ok. */
  async function expectChainServed(indexer: Watched): Promise<void> {
    await waitForHead(indexer, node)
    // One more block, so that a poll (and its self-check) runs on every path, new heads included.
    await market.mine(1)
    await waitForHead(indexer, node)
    await waitFor(() => indexer.store.sync.lastError === undefined && getHealth(indexer.store).ok)
    const served = snapshotStore(indexer.store)
    const health = getHealth(indexer.store).health
    expect(served).toEqual(await readChainMarket(node, devnet.deployment))
    expect(indexer.violations).toEqual([])
    expect(health).toMatchObject({ ok: true, problems: [], selfCheck: { unrepaired: 0 } })
  }

  async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('condition not met in time')
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  const codes = (indexer: TestIndexer): string[] => indexer.errors.map((error) => (error as { code?: string }).code ?? 'rpc')

  describe('back-fill', () => {
    for (const kind of ['emptyLogs', 'partialLogs', 'undecodableLog'] as const satisfies readonly LogFaultKind[]) {
      for (const times of [1, 4]) {
        test(`${kind}, ${times === 1 ? 'once' : `${times} times in a row`}: the market is served whole`, async () => {
          const proxy = await proxyFor()
          proxy.queueLogFault(kind, times)
          const indexer = watchedIndexer(proxy.url)
          await indexer.start()
          await expectChainServed(indexer)
          expect(proxy.counts[kind]).toBe(times)
          // Each spoiled answer failed its window, or (a log of a job the window also read) was
          // found by the job's history not fitting its record and read again.
          expect(indexer.errors.length + indexer.repairs.length).toBeGreaterThan(0)
          if (kind === 'undecodableLog') expect(codes(indexer)).toContain('undecodable_log')
          if (kind === 'emptyLogs') expect(codes(indexer)).toContain('incomplete_logs')
          await indexer.stop()
        })
      }
    }

    test('a node lagging its head on half the requests: the market is served whole', async () => {
      const proxy = await proxyFor({ lagRate: 0.5, lagBlocks: 40n, seed: 13 })
      const indexer = watchedIndexer(proxy.url)
      await indexer.start()
      proxy.setLagRate(0)
      await expectChainServed(indexer)
      expect(proxy.counts.lagging).toBeGreaterThan(0)
      await indexer.stop()
    })
  })

  describe('polling and new heads', () => {
    const paths = {
      polling: {},
      'new heads': { pollIntervalMs: 60_000 },
    } satisfies Record<string, Partial<CreateTestIndexerParameters>>

    for (const [path, options] of Object.entries(paths)) {
      test(`${path}: empty, partial and undecodable answers, once and repeatedly, at the head`, async () => {
        const proxy = await proxyFor()
        const indexer = watchedIndexer(proxy.url, {
          ...options,
          newHeads: path === 'new heads' ? { url: devnet.rpcUrl.replace('http://', 'ws://') } : undefined,
          onNewHeadsChange: () => undefined,
        })
        await indexer.start()
        for (const kind of ['emptyLogs', 'partialLogs', 'undecodableLog'] as const) {
          for (const times of [1, 3]) {
            proxy.queueLogFault(kind, times)
            const jobId = await market.createJob({ serviceId })
            await market.settleJob(jobId)
            await expectChainServed(indexer)
            expect(proxy.counts[kind]).toBeGreaterThan(0)
          }
        }
        expect(codes(indexer)).toEqual(expect.arrayContaining(['incomplete_logs', 'undecodable_log']))
        await indexer.stop()
      })

      test(`${path}: a node lagging the announced head`, async () => {
        const proxy = await proxyFor({ lagRate: 0.5, lagBlocks: 2n, seed: 13 })
        const indexer = watchedIndexer(proxy.url, {
          ...options,
          newHeads: path === 'new heads' ? { url: devnet.rpcUrl.replace('http://', 'ws://') } : undefined,
          onNewHeadsChange: () => undefined,
        })
        await indexer.start()
        for (let round = 0; round < 4; round += 1) {
          const jobId = await market.createJob({ serviceId })
          await market.settleJob(jobId)
        }
        proxy.setLagRate(0)
        await expectChainServed(indexer)
        expect(proxy.counts.lagging).toBeGreaterThan(0)
        await indexer.stop()
      })
    }
  })

  test('a log that stays undecodable: /healthz says so and names it, nothing is skipped, it recovers', async () => {
    const proxy = await proxyFor()
    const indexer = watchedIndexer(proxy.url)
    await indexer.start()
    proxy.queueLogFault('undecodableLog', 10_000)
    const jobId = await market.createJob({ serviceId })
    await waitFor(() => !getHealth(indexer.store).ok)
    const { health } = getHealth(indexer.store)
    expect(health.problems).toEqual([
      {
        code: 'undecodable_log',
        message: expect.stringMatching(/^The node answered a log \d+ of transaction "0x[0-9a-f]{64}" in block \d+ \(contract 0x[0-9a-fA-F]{40}\) that does not decode: .+\.$/),
      },
    ])
    expect(indexer.store.job(jobId)).toBeUndefined()
    proxy.clearLogFaults()
    await expectChainServed(indexer)
    await indexer.stop()
  })

  test('the node switches to another chain: nothing is served (503 chain_id_mismatch), nothing is cleared, it resumes by itself', async () => {
    const other = await startTestDevnet({ seed: false })
    running.push(other)
    const proxy = await proxyFor()
    const indexer = watchedIndexer(proxy.url)
    await indexer.start()
    const before = snapshotStore(indexer.store)

    proxy.switchChain({ target: other.rpcUrl, chainId: 1 })
    await waitFor(() => indexer.store.sync.chainMismatch !== undefined)
    await market.createJob({ serviceId })
    await new Promise((resolve) => setTimeout(resolve, 500))
    const { ok, health } = getHealth(indexer.store)
    expect(ok).toBe(false)
    expect(health.problems).toEqual([
      { code: 'chain_id_mismatch', message: `The node serves chain "1", but the configuration expects chain "${devnet.deployment.chainId}".` },
    ])
    for (const read of [() => listServices(indexer.store), () => getStats(indexer.store), () => getJob(indexer.store, { jobId: 1n })]) {
      expect(read).toThrow(ChainIdMismatchError)
    }
    expect(indexer.store.counters.jobs).toBe(before.stats.jobs.total)

    proxy.switchChain(undefined)
    await waitFor(() => indexer.store.sync.chainMismatch === undefined)
    await expectChainServed(indexer)
    expect(codes(indexer)).toContain('chain_id_mismatch')
    await indexer.stop()
  })

  test('the self-check finds a record that differs from the chain, repairs it and counts it; health is never ok meanwhile', async () => {
    const proxy = await proxyFor()
    const indexer = watchedIndexer(proxy.url, { selfCheckJobs: 5, selfCheckServices: 2 })
    await indexer.start()
    const settled = indexer.store.jobList.find(({ job }) => job.stateName === 'Settled')
    expect(settled).toBeDefined()
    const jobId = BigInt(settled?.job.jobId as string)
    // What a lost JobSettled leaves: the job as created, without its later history.
    indexer.store.replaceJob({
      jobId,
      job: { ...(settled?.job as NonNullable<typeof settled>['job']), state: 0, stateName: 'Pending' },
      events: (settled?.events ?? []).slice(0, 1).map((event) => ({ event })),
    })
    await waitFor(() => indexer.store.sync.selfCheck.repairs > 0, 60_000)
    expect(indexer.repairs).toEqual([expect.stringMatching(new RegExp(`^job ${jobId}: its record differs \\(store: Pending, chain: Settled\\)$`))])
    await expectChainServed(indexer)
    const { selfCheck } = getHealth(indexer.store).health
    expect(selfCheck).toMatchObject({ repairs: 1, unrepaired: 0, checkedJobs: 5, checkedServices: 2 })
    expect(selfCheck.lastRunAt).toMatch(/^[1-9][0-9]*$/)
    await indexer.stop()
  })

  test('RPC calls per poll: following the head, idle and with a block per poll', async () => {
    const proxy = await proxyFor()
    const indexer = watchedIndexer(proxy.url, { pollIntervalMs: 200 })
    await indexer.start()
    await expectChainServed(indexer)
    const measure = async (action: () => Promise<void>): Promise<{ calls: number; requests: number; polls: number }> => {
      const calls = Object.values(proxy.calls).reduce((a, b) => a + b, 0)
      const requests = proxy.requests()
      const polls = indexer.store.sync.polls
      await action()
      return {
        calls: Object.values(proxy.calls).reduce((a, b) => a + b, 0) - calls,
        requests: proxy.requests() - requests,
        polls: indexer.store.sync.polls - polls,
      }
    }
    const idle = await measure(() => new Promise((resolve) => setTimeout(resolve, 2_000)))
    const busy = await measure(async () => {
      for (let round = 0; round < 5; round += 1) {
        await market.createJob({ serviceId })
        await new Promise((resolve) => setTimeout(resolve, 300))
      }
    })
    console.log(
      `RPC per poll: idle ${(idle.calls / idle.polls).toFixed(1)} calls in ${(idle.requests / idle.polls).toFixed(1)} requests ` +
        `(${idle.polls} polls); a new block per poll ${(busy.calls / busy.polls).toFixed(1)} calls in ` +
        `${(busy.requests / busy.polls).toFixed(1)} requests (${busy.polls} polls)`,
    )
    expect(idle.polls).toBeGreaterThan(3)
    expect(idle.calls / idle.polls).toBeLessThanOrEqual(8)
    await indexer.stop()
  })
}
