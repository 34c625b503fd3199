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
    inputCommitment: flat(struct.inputCommitment),
  }
  // An expired job is past Attested in number but never held an attestation.
  const holdsAttestation = struct.attestationText !== '0x' || struct.attestationSignature !== '0x'
  if (struct.state < attestedState || !holdsAttestation) return job
  return {
    ...job,
    outputRootHash: flat(struct.outputRootHash),
    chatId: flat(struct.chatId),
    attestationText: flat(struct.attestationText),
    attestationSignature: flat(struct.attestationSignature),
    attestation: parseAttestationText(struct.attestationText),
  }
}

/**
 * viem's decoder builds hex one byte at a time, which V8 keeps as a rope of one node per byte
 * (a bytes32 costs ~0.9 KB, a signature ~2 KB); lowercasing (a no-op on viem's lowercase hex)
 * flattens it, so a stored job's strings cost about their length.
 */
function flat<value extends `0x${string}`>(hex: value): value {
  return hex.toLowerCase() as value
}
