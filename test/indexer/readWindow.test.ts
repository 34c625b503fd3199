import { createPublicClient, http } from 'viem'
import { getBlock, getBlockNumber } from 'viem/actions'
import { describe, expect, inject, test } from 'vitest'
import { MissingCreationsError } from '../../errors/chain.ts'
import { readWindow } from '../../server/indexer/readWindow.ts'
import type { CreationCount } from '../../server/store/StoreReader.ts'
import { readChainMarket } from './support/readChainMarket.ts'

const { rpcUrl, deployment } = inject('devnet')
const client = createPublicClient({ transport: http(rpcUrl, { batch: true }) })
const fromBlock = BigInt(deployment.deployBlock)
const toBlock = await getBlockNumber(client)
const chain = await readChainMarket(client, deployment)
const firstBlockTimestamp = (await getBlock(client, { blockNumber: fromBlock })).timestamp
/** Nothing counted yet: the indexer's first window. */
const unknownCreations: CreationCount = { next: { service: undefined, job: undefined }, first: { service: undefined, job: undefined }, checkedAt: undefined }
const base = { deployment, fromBlock, toBlock, creations: unknownCreations, firstBlockTimestamp }

test('default', async () => {
  const read = await readWindow(client, base)
  expect(read.toBlock).toEqual({ number: toBlock, hash: (await getBlock(client, { blockNumber: toBlock })).hash })
  expect([...read.services.values()].toSorted((a, b) => Number(a.serviceId) - Number(b.serviceId))).toEqual(chain.services)
  expect([...read.jobs.values()].toSorted((a, b) => Number(a.jobId) - Number(b.jobId))).toEqual(
    chain.jobs.map(({ events: _, ...job }) => job),
  )
})

describe('timestamps', () => {
  test('every block holding a log is dated, and no other', async () => {
    const read = await readWindow(client, base)
    const logBlocks = new Set(read.logs.map(({ blockNumber }) => blockNumber))
    expect(read.logs.some((log) => 'serviceId' in log.args && !('jobId' in log.args))).toBe(true)
    expect(new Set(read.timestamps.keys())).toEqual(logBlocks)
    for (const [blockNumber, timestamp] of read.timestamps) {
      expect(timestamp).toBe((await getBlock(client, { blockNumber })).timestamp)
    }
  })
})

describe('a window deeper than any reorg (no hash of its own)', () => {
  test('dates blocks holding only creations by the records read, with the headers\' times, and reads fewer headers', async () => {
    const headerReads = { near: 0, deep: 0 }
    const counting = (kind: keyof typeof headerReads) =>
      createPublicClient({
        transport: http(rpcUrl, {
          batch: true,
          onFetchRequest: (_request, init) => {
            for (const { method } of [JSON.parse(init.body as string) as { method: string } | { method: string }[]].flat()) {
              if (method === 'eth_getBlockByNumber') headerReads[kind] += 1
            }
          },
        }),
      })
    const near = await readWindow(counting('near'), base)
    const deep = await readWindow(counting('deep'), { ...base, readToBlockHash: false })
    expect(deep.toBlock.number).toBe(toBlock)
    expect(new Set(deep.timestamps.keys())).toEqual(new Set(near.timestamps.keys()))
    for (const [blockNumber, timestamp] of deep.timestamps) {
      expect(timestamp).toBe((await getBlock(client, { blockNumber })).timestamp)
    }
    const creationOnly = [...near.timestamps.keys()].filter((blockNumber) =>
      near.logs.filter((log) => log.blockNumber === blockNumber).every((log) => log.eventName === 'ServiceRegistered' || log.eventName === 'JobCreated'),
    )
    expect(creationOnly.length).toBeGreaterThan(0)
    expect(headerReads.deep).toBe(headerReads.near - 1 - creationOnly.length)
  })

  test('the headers it reads go in the records\' batch: no round trip waits for the records alone', async () => {
    const requests: string[][] = []
    const recording = createPublicClient({
      transport: http(rpcUrl, {
        batch: true,
        onFetchRequest: (_request, init) => {
          requests.push([JSON.parse(init.body as string) as { method: string } | { method: string }[]].flat().map(({ method }) => method))
        },
      }),
    })
    await readWindow(recording, { ...base, readToBlockHash: false })
    const withHeaders = requests.filter((methods) => methods.includes('eth_getBlockByNumber'))
    expect(withHeaders.length).toBeGreaterThan(0)
    expect(withHeaders.filter((methods) => !methods.includes('eth_call'))).toEqual([])
  })
})

describe('readJobsAt', () => {
  test('jobs read earlier in the scan at or after the window are left out; their logs are still returned', async () => {
    const readJobsAt = new Map([[1n, toBlock], [2n, toBlock + 5n], [3n, toBlock - 1n]])
    const read = await readWindow(client, { ...base, readJobsAt })
    expect([...read.jobs.keys()].filter((jobId) => jobId === 1n || jobId === 2n)).toEqual([])
    // Read before the window's last block: its events since may have changed it.
    expect(read.jobs.has(3n)).toBe(true)
    expect(read.jobs.size).toBe(chain.jobs.length - 2)
    expect(read.logs.filter((log) => 'jobId' in log.args && (log.args.jobId === 1n || log.args.jobId === 2n)).length).toBeGreaterThan(0)
  })
})

describe('creations', () => {
  const chainNext = { service: BigInt(chain.services.length + 1), job: BigInt(chain.jobs.length + 1) }

  test('counted from nothing, checked at the end: the next ids and the first ones', async () => {
    const read = await readWindow(client, { ...base, checkCountAtEnd: true })
    expect(read.creations).toEqual({ next: chainNext, first: { service: 1n, job: 1n }, checkedAt: toBlock })
  })

  test('not checked at the end: counted only, and no next id is read', async () => {
    const read = await readWindow(client, base)
    expect(read.creations).toEqual({ next: chainNext, first: { service: 1n, job: 1n }, checkedAt: undefined })
  })

  test('a count ahead of the window names the ids missing from it', async () => {
    const creations = { ...unknownCreations, next: { service: 1n, job: 0n }, first: { service: 1n, job: 0n } }
    await expect(readWindow(client, { ...base, creations })).rejects.toThrow(MissingCreationsError)
    await expect(readWindow(client, { ...base, creations })).rejects.toMatchObject({ kind: 'job', fromId: 0n })
  })

  test('a count past the window: the answer repeats creations already held', async () => {
    const creations = { ...unknownCreations, next: { service: 1n, job: 5n }, first: { service: 1n, job: 1n } }
    await expect(readWindow(client, { ...base, creations })).rejects.toThrow(/job 1 was created again or out of order/)
  })

  test('a window starting after job 1 was created, with job 1 created after the first block: its creation is missing', async () => {
    // Blocks from the second job's creation on: job 1 was created in the indexed range, before it.
    const secondJobBlock = BigInt(chain.jobs[1]?.events[0]?.blockNumber as string)
    const read = readWindow(client, { ...base, fromBlock: secondJobBlock })
    await expect(read).rejects.toMatchObject({ kind: 'job', fromId: 1n })
  })

  test('the same window, with the first block after job 1 was created: job 1 is not ours, the first job id is 2', async () => {
    const secondJobBlock = BigInt(chain.jobs[1]?.events[0]?.blockNumber as string)
    const { timestamp } = await getBlock(client, { blockNumber: secondJobBlock })
    const read = await readWindow(client, { ...base, fromBlock: secondJobBlock, firstBlockTimestamp: timestamp, checkCountAtEnd: true })
    expect(read.creations.first.job).toBe(2n)
    expect(read.creations.next.job).toBe(chainNext.job)
  })
})
