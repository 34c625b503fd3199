import type { Hash } from 'viem'
import type { DisputeEvent } from '../../contract/disputeEvent.ts'
import type { AttestationFields } from '../../contract/attestation.ts'
import { buildJob, type JobAttestation, type UnattestedJob } from '../../contract/buildJob.ts'
import { buildJobEvent } from '../../contract/buildJobEvent.ts'
import { jobAttestationKeys, toJobStateName, type Job, type JobEvent } from '../../contract/job.ts'
import { outputContentHash } from '../../contract/outputContentHash.ts'
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
 * slots (their key order is the store's, not this), so their keys need not be kept.
 */
type EventJson =
  | readonly [JobEvent['event'], string, JobEvent['transactionHash'], number, string, string | null]
  | readonly [JobEvent['event'], string, JobEvent['transactionHash'], number, string, string | null, DisputeEvent]
/** The attestation's fields in AttestationFields' order; the content hash null when it is the output root hash without its 0x. */
type AttestationJson = readonly [contentHash: string | null, usageHash: string, providerType: string, providerIdentity: string, tlsCertFingerprint: string]
type AttestedJson = readonly [
  outputRootHash: NonNullable<Job['outputRootHash']>,
  chatId: NonNullable<Job['chatId']>,
  attestationText: NonNullable<Job['attestationText']>,
  attestationSignature: NonNullable<Job['attestationSignature']>,
  attestation: AttestationJson | null,
]
/**
 * A job by position, in JobSchema's order, without what is derived (the state's name, and the
 * content hash the output root hash holds): a load parses every job, and keys and derived values
 * were a fifth of its text. `attested` is null below Attested (none of the attestation keys).
 */
type JobJson = readonly [
  jobId: Job['jobId'],
  serviceId: Job['serviceId'],
  buyer: Job['buyer'],
  seller: Job['seller'],
  amount: Job['amount'],
  protocolFee: Job['protocolFee'],
  createdAt: Job['createdAt'],
  timeout: Job['timeout'],
  state: Job['state'],
  inputCommitment: Job['inputCommitment'],
  attested: AttestedJson | null,
  events: readonly EventJson[],
]
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
  return JSON.stringify([
    job.jobId,
    job.serviceId,
    job.buyer,
    job.seller,
    job.amount,
    job.protocolFee,
    job.createdAt,
    job.timeout,
    job.state,
    job.inputCommitment,
    attestedToJson(job),
    events.map(({ event: { event, blockNumber, transactionHash, logIndex, timestamp }, settledWei, dispute }): EventJson => {
      const settled = settledWei?.toString() ?? null
      return dispute === undefined
        ? [event, blockNumber, transactionHash, logIndex, timestamp, settled]
        : [event, blockNumber, transactionHash, logIndex, timestamp, settled, dispute]
    }),
  ] satisfies JobJson)
}

/**
 * The job as toJob builds it from the chain: by buildJob, keys in JobSchema's order (what the API
 * serves), and a content hash equal to the output root hash a view of it.
 */
export function jobFromJson(text: string): JobSnapshot {
  const [jobId, serviceId, buyer, seller, amount, protocolFee, createdAt, timeout, state, inputCommitment, attested, events] = JSON.parse(text) as JobJson
  const fields: UnattestedJob = { jobId, serviceId, buyer, seller, amount, protocolFee, createdAt, timeout, state, stateName: toJobStateName(state), inputCommitment }
  return {
    job: attested === null ? buildJob(fields) : buildJob(fields, attestedFromJson(attested)),
    events: events.map(([event, blockNumber, transactionHash, logIndex, timestamp, settledWei, dispute]) => ({
      event: buildJobEvent({ event, blockNumber, transactionHash, logIndex, timestamp }),
      settledWei: settledWei === null ? undefined : BigInt(settledWei),
      dispute,
    })),
  }
}

function attestedToJson({ jobId, outputRootHash, chatId, attestationText, attestationSignature, attestation }: Job): AttestedJson | null {
  const held = [outputRootHash, chatId, attestationText, attestationSignature, attestation].filter((value) => value !== undefined).length
  if (held === 0) return null
  if (outputRootHash === undefined || chatId === undefined || attestationText === undefined || attestationSignature === undefined || attestation === undefined)
    throw new RangeError(`Job ${jobId} holds ${held} of the attestation keys (${jobAttestationKeys.join(', ')}): a stored job holds all of them or none, as toJob builds it.`)
  return [
    outputRootHash,
    chatId,
    attestationText,
    attestationSignature,
    attestation === null
      ? null
      : [
          attestation.contentHash === outputContentHash(outputRootHash) ? null : attestation.contentHash,
          attestation.usageHash,
          attestation.providerType,
          attestation.providerIdentity,
          attestation.tlsCertFingerprint,
        ],
  ]
}

function attestedFromJson(attested: AttestedJson): JobAttestation {
  return {
    outputRootHash: attested[0],
    chatId: attested[1],
    attestationText: attested[2],
    attestationSignature: attested[3],
    attestation: attestationFromJson(attested[4], attested[0]),
  }
}

function attestationFromJson(fields: AttestationJson | null, outputRootHash: string): AttestationFields | null {
  if (fields === null) return null
  const [contentHash, usageHash, providerType, providerIdentity, tlsCertFingerprint] = fields
  return { contentHash: contentHash ?? outputContentHash(outputRootHash), usageHash, providerType, providerIdentity, tlsCertFingerprint }
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
