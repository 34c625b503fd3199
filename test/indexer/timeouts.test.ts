import { createPublicClient, http, type Hex } from 'viem'
import { afterAll, expect, inject, test } from 'vitest'
import { startFaultProxy, type FaultProxy } from '../support/faultProxy.ts'
import { readChainMarket } from './support/readChainMarket.ts'
import { snapshotStore } from './support/snapshotStore.ts'
import { createTestIndexer } from './support/createTestIndexer.ts'

const { rpcUrl, deployment } = inject('devnet')
const clientTimeoutMs = 600
let proxy: FaultProxy | undefined

afterAll(async () => {
  await proxy?.stop()
})

test('a node that cannot answer wide windows in time: the window shrinks instead of asking again, and the market is indexed whole', async () => {
  // Answers holding more than 25 logs take longer than the client waits, as a busy node's do.
  proxy = await startFaultProxy({ target: rpcUrl, slowLogsAbove: 25, delayMs: clientTimeoutMs * 2 })
  const spans: { fromBlock: bigint; blocks: bigint }[] = []
  const indexer = createTestIndexer({
    rpcUrl: proxy.url,
    deployment,
    timeoutMs: clientTimeoutMs,
    pollIntervalMs: 200,
    onFetchRequest: (_request, init) => {
      for (const { method, params } of [JSON.parse(init.body as string) as { method: string; params?: [{ fromBlock?: Hex; toBlock?: Hex }] }].flat()) {
        const range = params?.[0]
        if (method !== 'eth_getLogs' || range?.fromBlock === undefined || range.toBlock === undefined) continue
        spans.push({ fromBlock: BigInt(range.fromBlock), blocks: BigInt(range.toBlock) - BigInt(range.fromBlock) + 1n })
      }
    },
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
  expect(indexer.errors).toEqual([])
  expect(indexer.logWindow.size()).toBeLessThan(9_000n)
})
