import type { ContractFunctionReturnType } from 'viem'
import type { escrowAbi } from '../abi/escrow.ts'
import { parseAttestationText } from '../attestation/parseAttestationText.ts'
import { attestedState, jobStateNames, type Job } from '../../contract/job.ts'

/** The escrow's `Job` struct as viem decodes it (uints as bigint, the enum as a number). */
export type JobStruct = ContractFunctionReturnType<typeof escrowAbi, 'view', 'getJob'>

/**
 * Turns the escrow's struct into the contract's Job: uints become decimal strings, the state
 * gets its name, and from Attested on (when the chain holds an attestation) the attestation keys
 * are added with the text parsed into its five fields.
 */
export function toJob(jobId: bigint, struct: JobStruct): Job {
  const stateName = jobStateNames[struct.state]
  if (stateName === undefined) throw new RangeError(`Job state ${struct.state} is outside the escrow's enum.`)
  const job: Job = {
    jobId: jobId.toString(),
    serviceId: struct.serviceId.toString(),
    buyer: struct.buyer,
    seller: struct.seller,
    amount: struct.amount.toString(),
    protocolFee: struct.protocolFee.toString(),
    createdAt: struct.createdAt.toString(),
    timeout: struct.timeout.toString(),
    state: struct.state,
    stateName,
    inputCommitment: struct.inputCommitment,
  }
  // An expired job is past Attested in number but never held an attestation.
  const holdsAttestation = struct.attestationText !== '0x' || struct.attestationSignature !== '0x'
  if (struct.state < attestedState || !holdsAttestation) return job
  return {
    ...job,
    outputRootHash: struct.outputRootHash,
    chatId: struct.chatId,
    attestationText: struct.attestationText,
    attestationSignature: struct.attestationSignature,
    attestation: parseAttestationText(struct.attestationText),
  }
}
