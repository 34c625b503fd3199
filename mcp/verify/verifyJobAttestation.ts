import { verifyAttestation } from '../../chain/attestation/verifyAttestation.ts'
import type { Job } from '../../contract/job.ts'
import type { VerifyAttestationResult } from '../../contract/mcp.ts'
import { AttestationMissingError } from '../../errors/mcp.ts'
import type { MarketSource } from '../source/MarketSource.ts'

export type VerifyJobAttestationParameters = {
  job: Job
  /** Where a failure to look up the rotation history is reported. */
  log?: (message: string) => void
}

export type VerifyJobAttestationReturnType = VerifyAttestationResult

/**
 * Recovers the job's attestation signer locally and compares it with the service's current
 * `signingAddress` as `source` holds it (an index's copy of the registry, or the chain). Only on a
 * mismatch does it ask for the key the attestation was accepted against, to say whether the
 * service rotated its key since the job was attested.
 */
export async function verifyJobAttestation(
  source: MarketSource,
  { job, log = () => {} }: VerifyJobAttestationParameters,
): Promise<VerifyJobAttestationReturnType> {
  if (job.attestationText === undefined || job.attestationSignature === undefined) {
    throw new AttestationMissingError({ jobId: job.jobId, stateName: `${job.stateName} (state ${job.state})` })
  }
  const service = await source.getService({ serviceId: BigInt(job.serviceId) })
  const attestation = { text: job.attestationText, signature: job.attestationSignature, expectedSigner: service.signingAddress }
  const first = verifyAttestation(attestation)
  if (first.ok || first.recoveredSigner === null) return { jobId: job.jobId, ...first }

  const attestedSigner = await source.attestedSigner({ job }).catch((error: unknown) => {
    // The rotation note is a refinement; the verdict stands without it.
    log(`verify_attestation: the attested key of job ${job.jobId} could not be read: ${error instanceof Error ? error.message : String(error)}`)
    return undefined
  })
  return { jobId: job.jobId, ...verifyAttestation({ ...attestation, attestedSigner }) }
}
