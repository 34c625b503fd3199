import { createPublicClient, http } from 'viem'
import { getBlock, getBlockNumber } from 'viem/actions'
import { describe, expect, inject, test } from 'vitest'
import { readWindow } from '../../server/indexer/readWindow.ts'
import { readChainMarket } from './support/readChainMarket.ts'

const { rpcUrl, deployment } = inject('devnet')
const client = createPublicClient({ transport: http(rpcUrl, { batch: true }) })
const { registry, escrow, arbiter } = deployment
const fromBlock = BigInt(deployment.deployBlock)
const toBlock = await getBlockNumber(client)
const chain = await readChainMarket(client, deployment)

test('default', async () => {
  const read = await readWindow(client, { registry, escrow, arbiter, fromBlock, toBlock })
  expect(read.toBlock).toEqual({ number: toBlock, hash: (await getBlock(client, { blockNumber: toBlock })).hash })
  expect([...read.services.values()].toSorted((a, b) => Number(a.serviceId) - Number(b.serviceId))).toEqual(chain.services)
  expect([...read.jobs.values()].toSorted((a, b) => Number(a.jobId) - Number(b.jobId))).toEqual(
    chain.jobs.map(({ events: _, ...job }) => job),
  )
})

describe('timestamps', () => {
  test('every block holding a log is dated, and no other', async () => {
    const read = await readWindow(client, { registry, escrow, arbiter, fromBlock, toBlock })
    const logBlocks = new Set(read.logs.map(({ blockNumber }) => blockNumber))
    expect(read.logs.some((log) => 'serviceId' in log.args && !('jobId' in log.args))).toBe(true)
    expect(new Set(read.timestamps.keys())).toEqual(logBlocks)
    for (const [blockNumber, timestamp] of read.timestamps) {
      expect(timestamp).toBe((await getBlock(client, { blockNumber })).timestamp)
    }
  })
})

describe('readJobIds', () => {
  test('jobs read earlier in the scan are left out; their logs are still returned', async () => {
    const readJobIds = new Set([1n, 2n])
    const read = await readWindow(client, { registry, escrow, arbiter, fromBlock, toBlock, readJobIds })
    expect([...read.jobs.keys()].filter((jobId) => readJobIds.has(jobId))).toEqual([])
    expect(read.jobs.size).toBe(chain.jobs.length - readJobIds.size)
    expect(read.logs.filter((log) => 'jobId' in log.args && readJobIds.has(log.args.jobId)).length).toBeGreaterThan(0)
  })
})
