import { createPublicClient, http, type Hex } from 'viem'
import { afterAll, expect, inject, test } from 'vitest'
import { LogRangeTooLargeError } from '../../errors/chain.ts'
import { startFaultProxy, type FaultProxy } from '../support/faultProxy.ts'
import { startLongHistoryDevnet, type StartLongHistoryDevnetReturnType } from '../support/startLongHistoryDevnet.ts'
import { readChainMarket } from './support/readChainMarket.ts'
import { snapshotStore } from './support/snapshotStore.ts'
import { createTestIndexer } from './support/createTestIndexer.ts'

const { rpcUrl, deployment } = inject('devnet')
const clientTimeoutMs = 600
let proxy: FaultProxy | undefined
let busyProxy: FaultProxy | undefined
let longDevnet: StartLongHistoryDevnetReturnType | undefined

afterAll(async () => {
  await proxy?.stop()
  await busyProxy?.stop()
  await longDevnet?.stop()
})

type Span = { fromBlock: bigint; blocks: bigint }

/**
 * The poll errors a log window caused: the scan must handle a window that times out itself. A head
 * request that a loaded host answers after the client's 600 ms is not one of them (CI at 6f4d3fc
 * saw one, four files at a time), and the next poll retries it.
 */
function logWindowErrors(errors: unknown[]): unknown[] {
  return errors.filter((error) => {
    for (let cause = error; cause instanceof Error; cause = cause.cause) {
      if (cause instanceof LogRangeTooLargeError || cause.message.includes('eth_getLogs')) return true
    }
    return false
  })
}

/** Records the block range of every `eth_getLogs` the indexer's client sends, in order. */
function recordSpans(spans: Span[]): (request: Request, init: RequestInit) => void {
  return (_request, init) => {
    for (const { method, params } of [JSON.parse(init.body as string) as { method: string; params?: [{ fromBlock?: Hex; toBlock?: Hex }] }].flat()) {
      const range = params?.[0]
      if (method !== 'eth_getLogs' || range?.fromBlock === undefined || range.toBlock === undefined) continue
      spans.push({ fromBlock: BigInt(range.fromBlock), blocks: BigInt(range.toBlock) - BigInt(range.fromBlock) + 1n })
    }
  }
}

test('a node that cannot answer wide windows in time: the window shrinks instead of asking again, and the market is indexed whole', async () => {
  // Answers holding more than 25 logs take longer than the client waits, as a busy node's do.
  proxy = await startFaultProxy({ target: rpcUrl, slowLogsAbove: 25, delayMs: clientTimeoutMs * 2 })
  const spans: Span[] = []
  const indexer = createTestIndexer({
    rpcUrl: proxy.url,
    deployment,
    timeoutMs: clientTimeoutMs,
    pollIntervalMs: 200,
    onFetchRequest: recordSpans(spans),
  })
  try {
    await indexer.start()
  } finally {
    await indexer.stop()
  }

  const node = createPublicClient({ transport: http(rpcUrl, { batch: true }) })
  expect(snapshotStore(indexer.store)).toEqual(await readChainMarket(node, deployment))
  expect(proxy.counts.slowLogs).toBeGreaterThan(0)
  // Each window that timed out was asked again narrower from the same block, never as wide.
  for (const [index, span] of spans.entries()) {
    const again = spans.slice(index + 1).find((later) => later.fromBlock === span.fromBlock)
    if (again !== undefined) expect(again.blocks).toBeLessThan(span.blocks)
  }
  // Handled within the scan: no poll failed for it.
  expect(logWindowErrors(indexer.errors)).toEqual([])
  expect(indexer.logWindow.size()).toBeLessThan(9_000n)
})

test('a node busy with an answer nobody waits for: no window queues behind it, and the window grows back where logs thin out', async () => {
  // The seeded market's blocks are dense, then 30,000 mostly empty blocks with three small bursts.
  longDevnet = await startLongHistoryDevnet({ blocks: 30_000n, bursts: 3 })
  busyProxy = await startFaultProxy({ target: longDevnet.rpcUrl, slowLogsAbove: 25, delayMs: clientTimeoutMs * 1.5, busyWhileSlow: true })
  const spans: Span[] = []
  const indexer = createTestIndexer({
    rpcUrl: busyProxy.url,
    deployment: longDevnet.deployment,
    timeoutMs: clientTimeoutMs,
    pollIntervalMs: 200,
    onFetchRequest: recordSpans(spans),
  })
  try {
    await indexer.start()
  } finally {
    await indexer.stop()
  }

  const node = createPublicClient({ transport: http(longDevnet.rpcUrl, { batch: true }) })
  expect(snapshotStore(indexer.store)).toEqual(await readChainMarket(node, longDevnet.deployment))
  expect(busyProxy.counts.slowLogs).toBeGreaterThan(0)
  // Only head requests waited for the busy node: each window went out once it was free.
  expect(busyProxy.callsBehindSlow.eth_blockNumber).toBeGreaterThan(0)
  expect(Object.keys(busyProxy.callsBehindSlow)).toEqual(['eth_blockNumber'])
  expect(logWindowErrors(indexer.errors)).toEqual([])
  // Shrunk to a few blocks at the seeded market, the window doubled back over the empty ones.
  const smallest = spans.reduce((least, span) => (span.blocks < least ? span.blocks : least), 9_000n)
  expect(smallest).toBeLessThan(100n)
  const after = spans.slice(spans.findIndex((span) => span.blocks === smallest))
  expect(after.some((span, index) => index > 0 && span.blocks === (after[index - 1] as Span).blocks * 2n)).toBe(true)
  expect(indexer.logWindow.size()).toBe(9_000n)
})
