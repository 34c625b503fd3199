import type { Client } from 'viem'
import { getBlock } from 'viem/actions'
import type { MarketSource } from '../source/MarketSource.ts'

export type ReadSecondsLeftParameters = {
  /** Must read the chain: the job's timeout as it is. */
  chain: MarketSource
  jobId: bigint
}

/** Seconds until the job expires by the chain's clock; 0 once it has. */
export async function readSecondsLeft(client: Client, { chain, jobId }: ReadSecondsLeftParameters): Promise<number> {
  const [job, head] = await Promise.all([chain.getJob({ jobId }), getBlock(client, { blockTag: 'latest' })])
  const left = Number(BigInt(job.timeout) - head.timestamp)
  return left > 0 ? left : 0
}
