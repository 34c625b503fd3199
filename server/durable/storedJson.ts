import type { Hash } from 'viem'
import type { DisputeEvent } from '../../contract/disputeEvent.ts'
import type { Job, JobEvent } from '../../contract/job.ts'
import type { Service } from '../../contract/service.ts'
import type { ServiceEvent } from '../../contract/serviceEvent.ts'
import type { CreationCount, IdsByKind } from '../store/StoreReader.ts'
import type { JobSnapshot, ServiceSnapshot, SyncSnapshot } from '../store/StoreWriter.ts'

/*
 * How snapshots are kept as JSON text: records and events as served (their numbers are already
 * decimal strings), and every bigint of the store's own as a decimal string, field by field, so
 * that nothing in a record is ever mistaken for one.
 */

type ServiceJson = { service: Service; events: readonly ServiceEvent[]; registeredBlock?: string; lastBlock?: string }
/**
 * Each event as `[name, blockNumber, transactionHash, logIndex, timestamp, settled wei or null]`,
 * and for a dispute's events the log with its arguments last: the store packs events into its own
 * slots (their key order is the store's, not this), so their keys need not be kept, and a load
 * reads a fifth less. The record is kept as an object: its key order is what the API serves.
 */
type EventJson =
  | readonly [JobEvent['event'], string, JobEvent['transactionHash'], number, string, string | null]
  | readonly [JobEvent['event'], string, JobEvent['transactionHash'], number, string, string | null, DisputeEvent]
type JobJson = { job: Job; events: readonly EventJson[] }
type IdsJson = { service?: string; job?: string }
type SyncJson = Omit<SyncSnapshot, 'cursor' | 'creations' | 'headBlock' | 'recentBlocks' | 'staleServiceIds' | 'staleJobIds'> & {
  cursor?: { number: string; hash?: Hash }
  creations: { next: IdsJson; first: IdsJson; checkedAt?: string }
  headBlock?: string
  recentBlocks: readonly (readonly [string, Hash])[]
  staleServiceIds: readonly string[]
  staleJobIds: readonly string[]
}

export function serviceToJson({ service, events, registeredBlock, lastBlock }: ServiceSnapshot): string {
  return JSON.stringify({ service, events, registeredBlock: registeredBlock?.toString(), lastBlock: lastBlock?.toString() } satisfies ServiceJson)
}

export function serviceFromJson(text: string): ServiceSnapshot {
  const { service, events, registeredBlock, lastBlock } = JSON.parse(text) as ServiceJson
  return { service, events, registeredBlock: toBigInt(registeredBlock), lastBlock: toBigInt(lastBlock) }
}

export function jobToJson({ job, events }: JobSnapshot): string {
  return JSON.stringify({
    job,
    events: events.map(({ event: { event, blockNumber, transactionHash, logIndex, timestamp }, settledWei, dispute }): EventJson => {
      const settled = settledWei?.toString() ?? null
      return dispute === undefined
        ? [event, blockNumber, transactionHash, logIndex, timestamp, settled]
        : [event, blockNumber, transactionHash, logIndex, timestamp, settled, dispute]
    }),
  } satisfies JobJson)
}

export function jobFromJson(text: string): JobSnapshot {
  const { job, events } = JSON.parse(text) as JobJson
  return {
    job,
    events: events.map(([event, blockNumber, transactionHash, logIndex, timestamp, settledWei, dispute]) => ({
      event: { event, blockNumber, transactionHash, logIndex, timestamp },
      settledWei: settledWei === null ? undefined : BigInt(settledWei),
      dispute,
    })),
  }
}

export function syncToJson({ cursor, creations, headBlock, recentBlocks, staleServiceIds, staleJobIds, ...rest }: SyncSnapshot): string {
  return JSON.stringify({
    ...rest,
    cursor: cursor === undefined ? undefined : { number: cursor.number.toString(), hash: cursor.hash },
    creations: { next: idsToJson(creations.next), first: idsToJson(creations.first), checkedAt: creations.checkedAt?.toString() },
    headBlock: headBlock?.toString(),
    recentBlocks: recentBlocks.map(({ number, hash }) => [number.toString(), hash] as const),
    staleServiceIds: staleServiceIds.map(String),
    staleJobIds: staleJobIds.map(String),
  } satisfies SyncJson)
}

export function syncFromJson(text: string): SyncSnapshot {
  const { cursor, creations, headBlock, recentBlocks, staleServiceIds, staleJobIds, ...rest } = JSON.parse(text) as SyncJson
  const count: CreationCount = { next: idsFromJson(creations.next), first: idsFromJson(creations.first), checkedAt: toBigInt(creations.checkedAt) }
  return {
    ...rest,
    cursor: cursor === undefined ? undefined : { number: BigInt(cursor.number), hash: cursor.hash },
    creations: count,
    headBlock: toBigInt(headBlock),
    recentBlocks: recentBlocks.map(([number, hash]) => ({ number: BigInt(number), hash })),
    staleServiceIds: staleServiceIds.map((id) => BigInt(id)),
    staleJobIds: staleJobIds.map((id) => BigInt(id)),
  }
}

function idsToJson({ service, job }: IdsByKind): IdsJson {
  return { service: service?.toString(), job: job?.toString() }
}

function idsFromJson({ service, job }: IdsJson): IdsByKind {
  return { service: toBigInt(service), job: toBigInt(job) }
}

function toBigInt(text: string | undefined): bigint | undefined {
  return text === undefined ? undefined : BigInt(text)
}
