import { createTestClient, http } from 'viem'
import { hardhat } from 'viem/chains'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { createMarketDriver, type MarketDriver } from '../indexer/support/createMarketDriver.ts'
import { startTestDevnet } from './startTestDevnet.ts'

export type StartLongHistoryDevnetParameters = {
  /** The chain holds at least this many blocks when it is handed over (default 2,000,000, mainnet-sized). */
  blocks?: bigint
  /** Bursts of market activity spread evenly over the history after the seeded market (default 20). */
  bursts?: number
  /** Jobs created in each burst; the first of them is settled, the rest stay Created (default 3). */
  jobsPerBurst?: number
  /** Seconds between the empty blocks mined across the gaps (default 12, mainnet's slot time). */
  blockTimeSeconds?: number
  /** Mnemonic index of the bursts' seller (the buyer is the next one); tests' own drivers use 20. */
  accountIndex?: number
}

export type LongHistoryBurst = {
  /** First and last block of the burst's transactions. */
  fromBlock: bigint
  toBlock: bigint
  serviceId: bigint
  jobIds: readonly bigint[]
  settledJobIds: readonly bigint[]
}

export type StartLongHistoryDevnetReturnType = StartDevnetReturnType & {
  bursts: readonly LongHistoryBurst[]
  /** The head once the history is built: `blocks` or a little more. */
  head: bigint
}

/**
 * A seeded test devnet whose market activity is spread over a long history of mostly empty
 * blocks, as an indexer meets on a real chain. Hardhat's `hardhat_mine` reserves empty blocks
 * without building them, so 2,000,000 blocks take about a second; the bursts cost one
 * transaction each. Call `stop()` in `afterAll`.
 */
export async function startLongHistoryDevnet({
  blocks = 2_000_000n,
  bursts = 20,
  jobsPerBurst = 3,
  blockTimeSeconds = 12,
  accountIndex = 24,
}: StartLongHistoryDevnetParameters = {}): Promise<StartLongHistoryDevnetReturnType> {
  const devnet = await startTestDevnet({ seed: true })
  try {
    const market = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment, accountIndex })
    const testClient = createTestClient({ chain: hardhat, transport: http(devnet.rpcUrl), mode: 'hardhat' })
    const mineUntil = async (block: bigint): Promise<void> => {
      const gap = block - (await market.blockNumber())
      if (gap > 0n) await testClient.mine({ blocks: Number(gap), interval: blockTimeSeconds })
    }
    const done: LongHistoryBurst[] = []
    for (let burst = 1; burst <= bursts; burst += 1) {
      // Burst n starts at n/(bursts+1) of the history, so the last gap is as long as the others.
      await mineUntil((blocks * BigInt(burst)) / BigInt(bursts + 1) - 1n)
      done.push(await runBurst(market, { jobsPerBurst }))
    }
    await mineUntil(blocks)
    return { ...devnet, bursts: done, head: await market.blockNumber() }
  } catch (error) {
    await devnet.stop()
    throw error
  }
}

async function runBurst(market: MarketDriver, { jobsPerBurst }: { jobsPerBurst: number }): Promise<LongHistoryBurst> {
  const fromBlock = (await market.blockNumber()) + 1n
  const serviceId = await market.registerService()
  const jobIds: bigint[] = []
  for (let job = 0; job < jobsPerBurst; job += 1) jobIds.push(await market.createJob({ serviceId }))
  const settledJobIds = jobIds.slice(0, 1)
  for (const jobId of settledJobIds) await market.settleJob(jobId)
  return { fromBlock, toBlock: await market.blockNumber(), serviceId, jobIds, settledJobIds }
}
