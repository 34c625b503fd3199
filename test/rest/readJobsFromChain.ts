import { createPublicClient, http, type Address } from 'viem'
import { escrowAbi } from '../../chain/abi/escrow.ts'

/** What the job queries filter on, as the escrow holds it. */
export type ChainJob = { jobId: string; serviceId: string; buyer: Address; seller: Address; state: number }

/**
 * The oracle of the job-query tests: every job the escrow holds, newest first, read with the
 * escrow's own ABI (nextJobId, then getJob per id), never through the indexer's readers or mappers.
 */
export async function readJobsFromChain({ rpcUrl, escrow }: { rpcUrl: string; escrow: Address }): Promise<ChainJob[]> {
  const client = createPublicClient({ transport: http(rpcUrl) })
  const nextJobId = await client.readContract({ address: escrow, abi: escrowAbi, functionName: 'nextJobId' })
  const ids = Array.from({ length: Number(nextJobId) - 1 }, (_, index) => BigInt(index + 1))
  const jobs = await Promise.all(
    ids.map(async (jobId) => {
      const job = await client.readContract({ address: escrow, abi: escrowAbi, functionName: 'getJob', args: [jobId] })
      return { jobId: jobId.toString(), serviceId: job.serviceId.toString(), buyer: job.buyer, seller: job.seller, state: Number(job.state) }
    }),
  )
  return jobs.reverse()
}
