import { buildJobEvent } from '../../contract/buildJobEvent.ts'
import { jobEventNames, type JobEvent } from '../../contract/job.ts'
import type { Job } from '../../contract/job.ts'
import type { StoredJob } from './StoreReader.ts'
import type { JobKey } from './jobsById.ts'

/**
 * A job's history packed flat, `eventSlots` slots per event, oldest first: the event's name and log
 * index in one number (see `eventCode`), its block number, transaction hash and block time (the
 * shared strings the JobEvent carries), and the wei of a JobSettled event (undefined for the
 * others). An event object per log would cost ~72 B (header, five fields, its slot in a per-job
 * array) where these slots cost 40; readers get JobEvent objects built on the fly (see `events`).
 */
export type History = readonly HistorySlot[]
export type HistorySlot = number | string | bigint | undefined
export const eventSlots = 5
export const noHistory: History = []

/** The name's position in jobEventNames plus the log index times their count: exact below 2^53. */
export function eventCode(event: JobEvent): number {
  const nameIndex = jobEventNames.indexOf(event.event)
  if (nameIndex === -1) throw new RangeError(`Job event "${event.event}" is not one of ${jobEventNames.join(', ')}.`)
  return event.logIndex * jobEventNames.length + nameIndex
}

export function eventNameAt(history: History, at: number): JobEvent['event'] {
  return jobEventNames[(history[at] as number) % jobEventNames.length] as JobEvent['event']
}

export function logIndexAt(history: History, at: number): number {
  return Math.floor((history[at] as number) / jobEventNames.length)
}

export function blockNumberAt(history: History, at: number): string {
  return history[at + 1] as string
}

export function transactionHashAt(history: History, at: number): string {
  return history[at + 2] as string
}

/** The wei a JobSettled event settled (`paidToSeller + protocolFee`); undefined for the others. */
export function settledWeiAt(history: History, at: number): bigint | undefined {
  return history[at + 4] as bigint | undefined
}

export class JobEntry implements StoredJob {
  job: Job
  history: History
  version: number
  readonly key: JobKey
  constructor(job: Job, version: number, key: JobKey) {
    this.job = job
    this.history = noHistory
    this.version = version
    this.key = key
  }

  /** The served JobEvent objects, built by buildJobEvent (MCP's JSON keeps their key order). */
  get events(): JobEvent[] {
    const { history } = this
    const events: JobEvent[] = new Array(history.length / eventSlots)
    for (let at = 0; at < history.length; at += eventSlots)
      events[at / eventSlots] = buildJobEvent({
        event: eventNameAt(history, at),
        blockNumber: blockNumberAt(history, at),
        transactionHash: transactionHashAt(history, at) as JobEvent['transactionHash'],
        logIndex: logIndexAt(history, at),
        timestamp: history[at + 3] as string,
      })
    return events
  }
}


/** Whether the history holds the log at this block and log index. */
export function holds(history: History, { blockNumber, logIndex }: { blockNumber: string; logIndex: number }): boolean {
  for (let at = 0; at < history.length; at += eventSlots)
    if (logIndexAt(history, at) === logIndex && blockNumberAt(history, at) === blockNumber) return true
  return false
}
