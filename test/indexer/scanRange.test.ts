import { createPublicClient, createTestClient, custom, http, toFunctionSelector, type Hex } from 'viem'
import { hardhat } from 'viem/chains'
import { expect, inject, test } from 'vitest'
import { readByIdsCode } from '../../chain/read/readByIdsCode.ts'
import { MissingCreationsError } from '../../errors/chain.ts'
import { createIndexer } from '../../server/indexer/createIndexer.ts'
import { createStore } from '../../server/store/createStore.ts'
import { startLongHistoryDevnet, type LongHistoryBurst } from '../support/startLongHistoryDevnet.ts'
import { createTestIndexer, waitForHead } from './support/createTestIndexer.ts'
import { readChainMarket } from './support/readChainMarket.ts'
import { snapshotStore } from './support/snapshotStore.ts'

const { rpcUrl, deployment } = inject('devnet')
const getJobSelector = toFunctionSelector('getJob(uint256)').slice(2)

type JsonRpcCall = { method: string; params?: [{ to?: string; data?: Hex }] }

test('a job is read once per scan, however many windows its events fall in', async () => {
  const maxWindow = 10n
  const node = createPublicClient({ transport: http(rpcUrl, { batch: true }) })
  const chain = await readChainMarket(node, deployment)
  const spansWindows = chain.jobs.filter(({ events }) => {
    const blocks = events.map(({ blockNumber }) => BigInt(blockNumber))
    return blocks.length > 1 && blocks.reduce((a, b) => (a > b ? a : b)) - blocks.reduce((a, b) => (a < b ? a : b)) >= maxWindow
  })
  expect(spansWindows.length).toBeGreaterThan(0)

  // Every job id the indexer asks getJob for, from the request bodies it sends.
  const jobIdsRead: bigint[] = []
  const escrowKey = deployment.escrow.toLowerCase()
  const readerPrefix = `${readByIdsCode}${getJobSelector}${escrowKey.slice(2)}`
  const client = createPublicClient({
    transport: http(rpcUrl, {
      batch: { batchSize: 100 },
      retryCount: 0,
      onFetchRequest: (_request, init) => {
        for (const { method, params } of [JSON.parse(init.body as string) as JsonRpcCall | JsonRpcCall[]].flat()) {
          const data = params?.[0].data
          if (method !== 'eth_call' || data === undefined) continue
          if (data.startsWith(readerPrefix)) {
            for (let start = readerPrefix.length; start < data.length; start += 64) {
              jobIdsRead.push(BigInt(`0x${data.slice(start, start + 64)}`))
            }
          } else if (params?.[0].to?.toLowerCase() === escrowKey && data.startsWith(`0x${getJobSelector}`)) {
            jobIdsRead.push(BigInt(`0x${data.slice(10)}`))
          }
        }
      },
    }),
  })
  const errors: unknown[] = []
  const indexer = createIndexer(client, {
    deployment,
    startBlock: BigInt(deployment.deployBlock),
    chainId: deployment.chainId,
    store: createStore({ pollIntervalMs: 3_000, chainId: deployment.chainId, network: 'devnet' }),
    maxWindow,
    // The self-check reads jobs again on purpose; this counts the scan's reads.
    selfCheckJobs: 0,
    selfCheckServices: 0,
    onError: (error) => errors.push(error),
  })
  try {
    await indexer.start()
  } finally {
    await indexer.stop()
  }

  expect(errors).toEqual([])
  expect(snapshotStore(indexer.store)).toEqual(chain)
  expect(jobIdsRead.toSorted((a, b) => (a < b ? -1 : 1))).toEqual(chain.jobs.map(({ jobId }) => BigInt(jobId)))
})

test('creations left out of a window are found by a later one: the store goes back to the last creation it holds and reads on from there', async () => {
  const devnet = await startLongHistoryDevnet({ blocks: 7_500n, bursts: 3 })
  try {
    const [first, second, third] = devnet.bursts as [LongHistoryBurst, LongHistoryBurst, LongHistoryBurst]
    const windowBlocks = 2_000n
    // The window holding the second burst answers no logs, once: a node behind its balancer.
    const fromBlocks: bigint[] = []
    let spoiled = false
    const base = http(devnet.rpcUrl, { retryCount: 0 })
    const transport = custom({
      async request({ method, params }) {
        const answer = await base({}).request({ method, params })
        if (method !== 'eth_getLogs') return answer
        const { fromBlock, toBlock } = (params as [{ fromBlock: Hex; toBlock: Hex }])[0]
        fromBlocks.push(BigInt(fromBlock))
        if (spoiled || BigInt(fromBlock) > second.fromBlock || BigInt(toBlock) < second.toBlock) return answer
        spoiled = true
        return []
      },
    })
    const errors: unknown[] = []
    const indexer = createIndexer(createPublicClient({ transport }), {
      deployment: devnet.deployment,
      startBlock: BigInt(devnet.deployment.deployBlock),
      chainId: devnet.deployment.chainId,
      store: createStore({ pollIntervalMs: 100, chainId: devnet.deployment.chainId, network: 'devnet' }),
      maxWindow: windowBlocks,
      pollIntervalMs: 100,
      retryDelayMs: 10,
      onError: (error) => errors.push(error),
    })
    await indexer.start()
    await indexer.stop()

    expect(spoiled).toBe(true)
    // Found at the third burst's window: the second burst's service is the first id missing.
    expect(errors).toEqual([expect.any(MissingCreationsError)])
    expect(errors[0]).toMatchObject({ kind: 'service', fromId: second.serviceId })
    expect(BigInt(third.fromBlock)).toBeGreaterThan(second.toBlock)
    // Read again from the block of the last service held, the first burst's, not from the start.
    const afterError = fromBlocks.slice(fromBlocks.findIndex((block) => block > second.toBlock) + 1)
    expect(afterError[0]).toBe(first.fromBlock)
    const node = createPublicClient({ transport: http(devnet.rpcUrl, { batch: true }) })
    expect(snapshotStore(indexer.store)).toEqual(await readChainMarket(node, devnet.deployment))
  } finally {
    await devnet.stop()
  }
})

test('logsBloom checks follow the head: a back-fill reads no header of a block without our logs, a poll of a few new blocks reads each one', async () => {
  const devnet = await startLongHistoryDevnet({ blocks: 3_000n, bursts: 2 })
  try {
    const node = createPublicClient({ transport: http(devnet.rpcUrl, { batch: true }) })
    const { registry, escrow, arbiter, deployBlock } = devnet.deployment
    const logs = await node.getLogs({ address: [registry, escrow, arbiter], fromBlock: BigInt(deployBlock), toBlock: devnet.head })
    const withLogs = new Set(logs.map(({ blockNumber }) => blockNumber))
    const headersRead: bigint[] = []
    const bloomCheckBlocks = 100n
    const indexer = createTestIndexer({
      rpcUrl: devnet.rpcUrl,
      deployment: devnet.deployment,
      pollIntervalMs: 100,
      bloomCheckBlocks,
      // The self-check reads records of its own; this counts the scans' reads.
      selfCheckJobs: 0,
      selfCheckServices: 0,
      onFetchRequest: (_request, init) => {
        for (const { method, params } of [JSON.parse(init.body as string) as { method: string; params: [Hex] }].flat()) {
          if (method === 'eth_getBlockByNumber' && params[0].startsWith('0x')) headersRead.push(BigInt(params[0]))
        }
      },
    })
    try {
      await indexer.start()
      expect(indexer.errors).toEqual([])
      // Deep history: only blocks holding a log are dated by their header (and the first block, for its time).
      const deepEmpty = headersRead.filter((block) => block !== BigInt(deployBlock) && !withLogs.has(block) && block + bloomCheckBlocks <= devnet.head)
      expect(deepEmpty).toEqual([])

      headersRead.length = 0
      const testClient = createTestClient({ chain: hardhat, transport: http(devnet.rpcUrl), mode: 'hardhat' })
      await testClient.mine({ blocks: 5 })
      await waitForHead(indexer, node)
      const newBlocks = Array.from({ length: 5 }, (_, index) => devnet.head + 1n + BigInt(index))
      expect(newBlocks.filter((block) => !headersRead.includes(block))).toEqual([])
    } finally {
      await indexer.stop()
    }
  } finally {
    await devnet.stop()
  }
})
