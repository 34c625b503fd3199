import { createPublicClient, http, toFunctionSelector, type Hex } from 'viem'
import { expect, inject, test } from 'vitest'
import { readByIdsCode } from '../../chain/read/readByIdsCode.ts'
import { createIndexer } from '../../server/indexer/createIndexer.ts'
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
    registry: deployment.registry,
    escrow: deployment.escrow,
    arbiter: deployment.arbiter,
    startBlock: BigInt(deployment.deployBlock),
    chainId: deployment.chainId,
    network: 'devnet',
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
