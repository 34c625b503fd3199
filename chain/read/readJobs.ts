import type { Address, Client } from 'viem'
import { readContract } from 'viem/actions'
import { escrowAbi } from '../abi/escrow.ts'
import { toJob } from '../mappers/toJob.ts'
import type { Job } from '../../contract/job.ts'

export type ReadJobsParameters = {
  escrow: Address
  ids: readonly bigint[]
}
export type ReadJobsReturnType = Job[]

/**
 * Calls issued together: a batching transport (`http(url, { batch: true })`) sends each group as
 * a few JSON-RPC batches. Groups keep what is in flight bounded: a back-fill window touching
 * 30,000 jobs, issued at once, queued so long at a local node that requests timed out and the
 * window was read again and again (npm run bench).
 */
const groupSize = 1_000

/** Reads `getJob` for every id, in the order given, `groupSize` calls at a time. */
export async function readJobs(client: Client, { escrow, ids }: ReadJobsParameters): Promise<ReadJobsReturnType> {
  const jobs: Job[] = []
  for (let start = 0; start < ids.length; start += groupSize) {
    const group = ids.slice(start, start + groupSize)
    jobs.push(
      ...(await Promise.all(
        group.map(async (jobId) =>
          toJob(jobId, await readContract(client, { address: escrow, abi: escrowAbi, functionName: 'getJob', args: [jobId] })),
        ),
      )),
    )
  }
  return jobs
}
