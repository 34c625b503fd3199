import type { JobFeedData, ServiceFeedData } from '../../contract/feed.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { toJobDetail } from '../readers/toJobDetail.ts'
import { formatFeedCursor } from './feedCursor.ts'
import type { FeedEntry, FeedSubject } from './FeedEntry.ts'
import { correctionRank, headRank, type FeedPosition } from './FeedPosition.ts'
import { toSseFrame } from './toSseFrame.ts'

export type ToRecordEntryParameters = {
  store: StoreReader
  chainId: number
  /** The indexed block this event is sent at. */
  head: FeedPosition
  /** The head of the last batch sent: a log above it is new to the stream. */
  since: bigint
  /** Sends the event without an id (a resumed stream's corrections after a reorg). */
  withoutId?: boolean
  /** What a removed record was about, when the feed still knows it (its filters need it). */
  removedSubject?: FeedSubject | undefined
}

type Logged = { event: string; blockNumber: string; logIndex: number }

/** The event of a job as the store holds it now (or its removal), positioned at the log that last changed it. */
export function toJobEntry(jobId: bigint, parameters: ToRecordEntryParameters): FeedEntry {
  const stored = parameters.store.job(jobId)
  const id = jobId.toString()
  if (stored === undefined) return removedEntry('job', { jobId: id }, parameters.removedSubject ?? { kind: 'job', jobId: id, serviceId: '', seller: '', buyer: '' }, parameters)
  const { job, events } = stored
  const subject: FeedSubject = { kind: 'job', jobId: id, serviceId: job.serviceId, seller: job.seller.toLowerCase(), buyer: job.buyer.toLowerCase() }
  return recordEntry('job', { jobId: id, job: toJobDetail(job, events) }, { subject, events, creation: 'JobCreated' }, parameters)
}

/** The event of a service as the store holds it now (or its removal), positioned as toJobEntry does a job's. */
export function toServiceEntry(serviceId: bigint, parameters: ToRecordEntryParameters): FeedEntry {
  const { store } = parameters
  const service = store.service(serviceId)
  const id = serviceId.toString()
  if (service === undefined) return removedEntry('service', { serviceId: id }, parameters.removedSubject ?? { kind: 'service', serviceId: id, seller: '' }, parameters)
  const subject: FeedSubject = { kind: 'service', serviceId: id, seller: service.seller.toLowerCase() }
  return recordEntry('service', { serviceId: id, service }, { subject, events: store.serviceEvents(serviceId) ?? [], creation: 'ServiceRegistered' }, parameters)
}

function recordEntry(
  event: 'job' | 'service',
  record: Pick<JobFeedData, 'jobId' | 'job'> | Pick<ServiceFeedData, 'serviceId' | 'service'>,
  { subject, events, creation }: { subject: FeedSubject; events: readonly Logged[]; creation: string },
  { chainId, head, since, withoutId }: ToRecordEntryParameters,
): FeedEntry {
  const last = events.at(-1)
  const position: FeedPosition =
    last !== undefined && BigInt(last.blockNumber) > since ? { block: BigInt(last.blockNumber), rank: last.logIndex, witness: head.witness } : { ...head, rank: correctionRank }
  const created = events.some((logged) => logged.event === creation && BigInt(logged.blockNumber) > since)
  const data = { change: created ? 'created' : 'updated', position: toPositionData(position), ...record }
  return { position, subject, frame: toSseFrame({ id: withoutId ? undefined : formatFeedCursor(chainId, position), event, data }) }
}

function removedEntry(
  event: 'job' | 'service',
  id: { jobId: string } | { serviceId: string },
  subject: FeedSubject,
  { chainId, head, withoutId }: ToRecordEntryParameters,
): FeedEntry {
  const position: FeedPosition = { ...head, rank: correctionRank }
  const data = { change: 'removed', position: toPositionData(position), ...id, [event]: null }
  return { position, subject, frame: toSseFrame({ id: withoutId ? undefined : formatFeedCursor(chainId, position), event, data }) }
}

function toPositionData({ block, rank }: FeedPosition): { blockNumber: string; logIndex: number | null } {
  return { blockNumber: block.toString(), logIndex: rank >= headRank ? null : rank }
}
