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
 * Reads `getJob` for every id at once, in the order given. The calls are issued together so a
 * batching transport (`http(url, { batch: true })`) sends them as one JSON-RPC batch.
 */
export function readJobs(client: Client, { escrow, ids }: ReadJobsParameters): Promise<ReadJobsReturnType> {
  return Promise.all(
    ids.map(async (jobId) =>
      toJob(jobId, await readContract(client, { address: escrow, abi: escrowAbi, functionName: 'getJob', args: [jobId] })),
    ),
  )
}
