import type { Address, Client } from 'viem'
import { verifyAttestation } from '../../chain/attestation/verifyAttestation.ts'
import type { Job } from '../../contract/job.ts'
import type { VerifyAttestationResult } from '../../contract/mcp.ts'
import { AttestationMissingError } from '../../errors/mcp.ts'
import type { MarketSource } from '../source/MarketSource.ts'
import { findAttestedSigner } from './findAttestedSigner.ts'

export type VerifyJobAttestationParameters = {
  /** Must read the chain: the expected signer is the registry's current `signingAddress`. */
  chain: MarketSource
  escrow: Address
  job: Job
  /** Where a failure to look up the rotation history is reported. */
  log?: (message: string) => void
}

export type VerifyJobAttestationReturnType = VerifyAttestationResult

/**
 * Recovers the job's attestation signer locally and compares it with the service's current
 * `signingAddress` on chain. Only on a mismatch does it read the job's `JobAttested` event, to say
 * whether the service rotated its key since the job was attested.
 */
export async function verifyJobAttestation(
  client: Client,
  { chain, escrow, job, log = () => {} }: VerifyJobAttestationParameters,
): Promise<VerifyJobAttestationReturnType> {
  if (job.attestationText === undefined || job.attestationSignature === undefined) {
    throw new AttestationMissingError({ jobId: job.jobId, stateName: `${job.stateName} (state ${job.state})` })
  }
  const service = await chain.getService({ serviceId: BigInt(job.serviceId) })
  const attestation = { text: job.attestationText, signature: job.attestationSignature, expectedSigner: service.signingAddress }
  const first = verifyAttestation(attestation)
  if (first.ok || first.recoveredSigner === null) return { jobId: job.jobId, ...first }

  const jobId = BigInt(job.jobId)
  const attestedSigner = await findAttestedSigner(client, {
    escrow,
    jobId,
    createdAt: BigInt(job.createdAt),
    timeout: BigInt(job.timeout),
  }).catch((error: unknown) => {
    // The rotation note is a refinement; the verdict stands without it.
    log(`verify_attestation: JobAttested lookup for job ${jobId} failed: ${error instanceof Error ? error.message : String(error)}`)
    return undefined
  })
  return { jobId: job.jobId, ...verifyAttestation({ ...attestation, attestedSigner }) }
}
