import type { Hash } from 'viem'
import type { JobDetail } from '../../contract/job.ts'
import type { JobCreatedRecord } from './scanJobCreated.ts'

/** What the seller needs of a job an indexer sent (`GET /v1/jobs/:id`'s body): its `JobCreated`, whose transaction holds the prompt; undefined when its history lacks one. */
export function toJobCreatedRecord(job: Pick<JobDetail, 'jobId' | 'serviceId' | 'events'>): JobCreatedRecord | undefined {
  const created = job.events.find(({ event }) => event === 'JobCreated')
  if (created === undefined) return undefined
  return {
    jobId: BigInt(job.jobId),
    serviceId: BigInt(job.serviceId),
    blockNumber: BigInt(created.blockNumber),
    transactionHash: created.transactionHash as Hash,
  }
}
