import type { Hash } from 'viem'
import { toDisputeEvent, type JobContractLog } from '../../chain/mappers/toDisputeEvent.ts'
import { toJobEvent } from '../../chain/mappers/toJobEvent.ts'
import { jobEventNames, type JobEventName } from '../../contract/job.ts'
import type { AddJobEventParameters } from '../store/StoreWriter.ts'

/** A decoded log of one of a job's events (the escrow's, or the arbiter's about its dispute), where it sits in the chain. */
export type JobLog = JobContractLog & { eventName: JobEventName; blockNumber: bigint; transactionHash: Hash; logIndex: number }

export type ToHistoryEntryParameters = {
  log: JobLog
  /** Time (unix seconds) of the block holding the log. */
  timestamp: bigint
}
export type ToHistoryEntryReturnType = Omit<AddJobEventParameters, 'jobId'>

/**
 * One decoded log of a job as the store takes it, the same from a window's scan and from a
 * repair's read: the history entry, the settled wei it adds to the counters, and, for a dispute
 * event, the event with its arguments.
 */
export function toHistoryEntry({ log, timestamp }: ToHistoryEntryParameters): ToHistoryEntryReturnType {
  const event = toJobEvent({
    event: log.eventName,
    blockNumber: log.blockNumber,
    transactionHash: log.transactionHash,
    logIndex: log.logIndex,
    timestamp,
  })
  return {
    event,
    settledWei: log.eventName === 'JobSettled' ? log.args.paidToSeller + log.args.protocolFee : undefined,
    dispute: toDisputeEvent({ log, event }),
  }
}

/** Whether a decoded market log is one of a job's events. */
export function isJobLog(log: { eventName: string; args: object }): log is JobLog {
  return (jobEventNames as readonly string[]).includes(log.eventName) && 'jobId' in log.args
}
