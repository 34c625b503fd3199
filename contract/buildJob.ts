import type { Job, JobAttestationKey, JobDetail, JobDetailKey, JobEvent, JobKey, UnattestedJobKey } from './job.ts'

/** What every job holds: its keys below Attested. */
export type UnattestedJob = Pick<Job, UnattestedJobKey>
/** What a job holds from Attested on, when the chain holds an attestation: all of its attestation keys. */
export type JobAttestation = Required<Pick<Job, JobAttestationKey>>

/*
 * The one place a job's keys are written in order: JobSchema's, which the API serves (MCP serves a
 * job's keys in the object's own order). Each shape is one object literal, below Attested and from
 * Attested on, with and without events: V8 allocates a literal in one step under a hidden class
 * shared by every object of its shape, where spreading a job gives each object a hidden class of
 * its own (~0.5 KB each, and megamorphic reads in the serializer) and adding `events` to a built
 * job costs an extra properties store (measured ~5 times slower to build, ~15 % slower to
 * serialize). A caller's argument literals are dropped once V8 inlines a builder (measured no
 * slower than writing the job in place). Each literal `satisfies` the key set of its shape (see
 * JobKey), so a key added to JobSchema is a type error here, and then at each caller that must
 * give its value.
 */

/** A job from its fields, with the attestation keys when it holds an attestation. */
export function buildJob(fields: UnattestedJob, attested?: JobAttestation): Job {
  if (attested === undefined)
    return {
      jobId: fields.jobId,
      serviceId: fields.serviceId,
      buyer: fields.buyer,
      seller: fields.seller,
      amount: fields.amount,
      protocolFee: fields.protocolFee,
      createdAt: fields.createdAt,
      timeout: fields.timeout,
      state: fields.state,
      stateName: fields.stateName,
      inputCommitment: fields.inputCommitment,
    } satisfies Record<UnattestedJobKey, unknown>
  return {
    jobId: fields.jobId,
    serviceId: fields.serviceId,
    buyer: fields.buyer,
    seller: fields.seller,
    amount: fields.amount,
    protocolFee: fields.protocolFee,
    createdAt: fields.createdAt,
    timeout: fields.timeout,
    state: fields.state,
    stateName: fields.stateName,
    inputCommitment: fields.inputCommitment,
    outputRootHash: attested.outputRootHash,
    chatId: attested.chatId,
    attestationText: attested.attestationText,
    attestationSignature: attested.attestationSignature,
    attestation: attested.attestation,
  } satisfies Record<JobKey, unknown>
}

/** The job with its history: every key of the job, in buildJob's order, then `events` (kept as given, not copied). */
export function buildJobDetail(job: Job, events: JobEvent[]): JobDetail {
  if (job.attestation === undefined)
    return {
      jobId: job.jobId,
      serviceId: job.serviceId,
      buyer: job.buyer,
      seller: job.seller,
      amount: job.amount,
      protocolFee: job.protocolFee,
      createdAt: job.createdAt,
      timeout: job.timeout,
      state: job.state,
      stateName: job.stateName,
      inputCommitment: job.inputCommitment,
      events,
    } satisfies Record<Exclude<JobDetailKey, JobAttestationKey>, unknown>
  return {
    jobId: job.jobId,
    serviceId: job.serviceId,
    buyer: job.buyer,
    seller: job.seller,
    amount: job.amount,
    protocolFee: job.protocolFee,
    createdAt: job.createdAt,
    timeout: job.timeout,
    state: job.state,
    stateName: job.stateName,
    inputCommitment: job.inputCommitment,
    outputRootHash: job.outputRootHash,
    chatId: job.chatId,
    attestationText: job.attestationText,
    attestationSignature: job.attestationSignature,
    attestation: job.attestation,
    events,
  } satisfies Record<JobDetailKey, unknown>
}
