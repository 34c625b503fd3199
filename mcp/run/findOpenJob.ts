import type { Address, Client, Hash } from 'viem'
import { getBlock, getContractEvents } from 'viem/actions'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { type Job, jobStateNames } from '../../contract/job.ts'
import { OpenJobLookupError } from '../../errors/run.ts'
import type { MarketSource } from '../source/MarketSource.ts'

export type FindOpenJobParameters = {
  /** Must read the chain: the job's state now, not an index's. */
  chain: MarketSource
  escrow: Address
  buyer: Address
  serviceId: bigint
  /** `keccak256(input)`, as `JobCreated` carries it. */
  inputCommitment: Hash
  /**
   * How far back `JobCreated` is searched, in one `eth_getLogs` call: half the 2,000-block range
   * the reference chain's nodes accept, and about 16 minutes at its block a second, well past the
   * 60 s a client waits before retrying a call.
   */
  lookbackBlocks?: bigint
}

/** The newest open job, the transaction that created it and the seconds until it expires (chain clock); null when there is none. */
export type FindOpenJobReturnType = { job: Job; jobId: bigint; transactionHash: Hash; secondsLeft: number } | null

const pendingState = jobStateNames.indexOf('Pending')

/**
 * The buyer's job for this service and input that is still open (Pending and not expired by the
 * chain's clock), read from the chain: `JobCreated` filtered by its indexed buyer and service in
 * the recent blocks, then each candidate's state now. A `run` that finds one pays nothing.
 */
export async function findOpenJob(
  client: Client,
  { chain, escrow, buyer, serviceId, inputCommitment, lookbackBlocks = 1_000n }: FindOpenJobParameters,
): Promise<FindOpenJobReturnType> {
  try {
    const head = await getBlock(client, { blockTag: 'latest' })
    const logs = await getContractEvents(client, {
      address: escrow,
      abi: escrowAbi,
      eventName: 'JobCreated',
      args: { buyer, serviceId },
      fromBlock: head.number > lookbackBlocks ? head.number - lookbackBlocks : 0n,
      toBlock: head.number,
      strict: true,
    })
    const candidates = logs.filter((log) => log.args.inputCommitment === inputCommitment).reverse()
    for (const { args, transactionHash } of candidates) {
      const job = await chain.getJob({ jobId: args.jobId })
      const secondsLeft = Number(BigInt(job.timeout) - head.timestamp)
      if (job.state === pendingState && secondsLeft > 0) return { job, jobId: args.jobId, transactionHash, secondsLeft }
    }
    return null
  } catch (cause) {
    throw new OpenJobLookupError({ serviceId, cause })
  }
}
