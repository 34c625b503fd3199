import { verifyAttestation } from '../chain/attestation/verifyAttestation.ts'
import type { Job } from '../contract/job.ts'
import type { VerifyAttestationResult } from '../contract/mcp.ts'
import type { Service } from '../contract/service.ts'
import { JobServiceMismatchError } from '../errors/client.ts'
import { AttestationMissingError } from '../errors/mcp.ts'

export type VerifyJobAttestationOfflineParameters = {
  /** The job as the REST API or an MCP tool returned it (state 2, Attested, or later). */
  job: Pick<Job, 'jobId' | 'serviceId' | 'state' | 'stateName' | 'attestationText' | 'attestationSignature'>
  /** Its service (`GET /v1/services/:id`): the attestation must recover to its `signingAddress`. */
  service: Pick<Service, 'serviceId' | 'signingAddress'>
}

export type VerifyJobAttestationOfflineReturnType = VerifyAttestationResult

/**
 * Checks a job's attestation in the browser with no network call: recovers the signer from the
 * exact attestation bytes under the on-chain verifier's rules and compares it with the service's
 * `signingAddress`. Throws `AttestationMissingError` for a job below Attested.
 */
export function verifyJobAttestationOffline({
  job,
  service,
}: VerifyJobAttestationOfflineParameters): VerifyJobAttestationOfflineReturnType {
  if (job.serviceId !== service.serviceId) {
    throw new JobServiceMismatchError({ jobId: job.jobId, jobServiceId: job.serviceId, serviceId: service.serviceId })
  }
  if (job.attestationText === undefined || job.attestationSignature === undefined) {
    throw new AttestationMissingError({ jobId: job.jobId, stateName: `${job.stateName} (state ${job.state})` })
  }
  const result = verifyAttestation({
    text: job.attestationText,
    signature: job.attestationSignature,
    expectedSigner: service.signingAddress,
  })
  return { jobId: job.jobId, ...result }
}
