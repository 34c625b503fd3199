import { createPublicClient, http, type PublicClient } from 'viem'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { startLongHistoryDevnet, type StartLongHistoryDevnetReturnType } from './startLongHistoryDevnet.ts'

const window = 2_000n

describe('default: 2,000,000 blocks, 20 bursts', () => {
  let devnet: StartLongHistoryDevnetReturnType
  let client: PublicClient
  beforeAll(async () => {
    devnet = await startLongHistoryDevnet()
    client = createPublicClient({ chain: hardhat, transport: http(devnet.rpcUrl) })
  })
  afterAll(() => devnet?.stop())

  test('the history holds 2,000,000 blocks with the bursts spread across it', async () => {
    expect(devnet.head).toBeGreaterThanOrEqual(2_000_000n)
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(devnet.head)
    expect(devnet.bursts).toHaveLength(20)
    const gaps = devnet.bursts.slice(1).map((burst, index) => burst.fromBlock - (devnet.bursts[index] as { toBlock: bigint }).toBlock)
    for (const gap of gaps) expect(gap).toBeGreaterThan(90_000n)
  })

  test('mined blocks are 12 s apart, and the bursts continue the clock', async () => {
    const last = devnet.bursts.at(-1) as { fromBlock: bigint; toBlock: bigint }
    const block = (blockNumber: bigint) => client.getBlock({ blockNumber })
    const [before, first, end, head] = await Promise.all([block(last.fromBlock - 1n), block(last.fromBlock), block(last.toBlock), block(devnet.head)])
    // A burst's own blocks are a second apart: hardhat's clock runs ahead of the wall clock.
    expect(first.timestamp).toBeGreaterThan(before.timestamp)
    // hardhat_mine gives its first block the usual next timestamp (one second on), the rest `interval` apart.
    expect(head.timestamp - end.timestamp).toBe(1n + (devnet.head - last.toBlock - 1n) * 12n)
  })

  test("each burst's events are in the logs of its 2,000-block window", async () => {
    for (const burst of devnet.bursts) {
      const fromBlock = (burst.fromBlock / window) * window
      const created = await client.getContractEvents({
        address: devnet.deployment.escrow,
        abi: escrowAbi,
        eventName: 'JobCreated',
        fromBlock,
        toBlock: fromBlock + window - 1n,
      })
      expect(created.map((log) => log.args.jobId)).toEqual(expect.arrayContaining([...burst.jobIds]))
    }
  })
})

describe('quick: 7,500 blocks', () => {
  test('three bursts, each in a 2,000-block window of its own', async () => {
    const devnet = await startLongHistoryDevnet({ blocks: 7_500n, bursts: 3, jobsPerBurst: 2 })
    try {
      expect(devnet.head).toBe(7_500n)
      expect(new Set(devnet.bursts.map((burst) => burst.fromBlock / window)).size).toBe(3)
      for (const burst of devnet.bursts) {
        expect(burst.toBlock - burst.fromBlock).toBe(3n)
        expect(burst.jobIds).toHaveLength(2)
        expect(burst.settledJobIds).toEqual(burst.jobIds.slice(0, 1))
      }
    } finally {
      await devnet.stop()
    }
  })
})
