import type { Hash } from 'viem'
import type { JobEvent, JobEventName } from '../../contract/job.ts'

export type ToJobEventParameters = {
  event: JobEventName
  blockNumber: bigint
  transactionHash: Hash
  logIndex: number
  /** Block time, unix seconds. */
  timestamp: bigint
}

/** One entry of a job's on-chain history, block number and time as decimal strings. */
export function toJobEvent({ event, blockNumber, transactionHash, logIndex, timestamp }: ToJobEventParameters): JobEvent {
  return {
    event,
    blockNumber: blockNumber.toString(),
    transactionHash,
    logIndex,
    timestamp: timestamp.toString(),
  }
}
