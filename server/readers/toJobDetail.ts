import type { Job, JobAttestationKey, JobDetail, JobDetailKey, JobEvent } from '../../contract/job.ts'

/**
 * The job with its history, as one object literal per shape (below Attested, and from Attested
 * on): V8 allocates it in one step under a hidden class shared by all jobs, where `{ ...job,
 * events }` gives each object a hidden class of its own (measured ~0.5 KB, and megamorphic reads
 * in the serializer). Each literal `satisfies` the key set of its shape (see JobKey), so a key
 * added to JobSchema is a type error here until it is copied. The events array is the store's,
 * shared, never written.
 */
export function toJobDetail(job: Job, storedEvents: readonly JobEvent[]): JobDetail {
  const events = storedEvents as JobEvent[]
  if (job.attestation === undefined) {
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
  }
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
