import { buildJobEvent } from '../../contract/buildJobEvent.ts'
import type { JobEvent } from '../../contract/job.ts'

/** The contract's JobEvent with the block number and time (unix seconds) still bigints. */
export type ToJobEventParameters = Omit<JobEvent, 'blockNumber' | 'timestamp'> & {
  blockNumber: bigint
  timestamp: bigint
}

/** One entry of a job's on-chain history, block number and time as decimal strings. */
export function toJobEvent({ event, blockNumber, transactionHash, logIndex, timestamp }: ToJobEventParameters): JobEvent {
  return buildJobEvent({ event, blockNumber: blockNumber.toString(), transactionHash, logIndex, timestamp: timestamp.toString() })
}
