import type { ContractFunctionReturnType } from 'viem'
import type { escrowAbi } from '../abi/escrow.ts'
import { parseAttestationText } from '../attestation/parseAttestationText.ts'
import type { AttestationFields } from '../../contract/attestation.ts'
import { buildJob, type UnattestedJob } from '../../contract/buildJob.ts'
import { attestedState, toJobStateName, type Job } from '../../contract/job.ts'
import { outputContentHash } from '../../contract/outputContentHash.ts'
import { flattenHex } from './flattenHex.ts'

/** The escrow's `Job` struct as viem decodes it (uints as bigint, the enum as a number). */
export type JobStruct = ContractFunctionReturnType<typeof escrowAbi, 'view', 'getJob'>

/**
 * Turns the escrow's struct into the contract's Job: uints become decimal strings, the state
 * gets its name, and from Attested on (when the chain holds an attestation) the attestation keys
 * are added with the text parsed into its five fields.
 *
 * Built compact, since the indexer keeps every job: by buildJob (one object literal per shape, see
 * there), and no string keeps a larger one alive.
 */
export function toJob(jobId: bigint, struct: JobStruct): Job {
  const fields: UnattestedJob = {
    jobId: jobId.toString(),
    serviceId: struct.serviceId.toString(),
    buyer: struct.buyer,
    seller: struct.seller,
    amount: struct.amount.toString(),
    protocolFee: struct.protocolFee.toString(),
    createdAt: struct.createdAt.toString(),
    timeout: struct.timeout.toString(),
    state: struct.state,
    stateName: toJobStateName(struct.state),
    inputCommitment: flattenHex(struct.inputCommitment),
  }
  // An expired job is past Attested in number but never held an attestation.
  const holdsAttestation = struct.attestationText !== '0x' || struct.attestationSignature !== '0x'
  if (struct.state < attestedState || !holdsAttestation) return buildJob(fields)
  const outputRootHash = flattenHex(struct.outputRootHash)
  return buildJob(fields, {
    outputRootHash,
    chatId: flattenHex(struct.chatId),
    attestationText: flattenHex(struct.attestationText),
    attestationSignature: flattenHex(struct.attestationSignature),
    attestation: ownFields(parseAttestationText(struct.attestationText), outputRootHash),
  })
}

/**
 * The parsed fields are slices of the decoded text, and V8 keeps a slice of 13 characters or
 * more as a view that holds the whole text alive; an ASCII round trip through a Buffer makes each
 * a string of its own (the parser has already checked that the text is ASCII). The content hash
 * is usually the output root hash without its 0x (sellers attest the output they serve): then it
 * is a view of that string, which the job keeps anyway.
 */
function ownFields(fields: AttestationFields | null, outputRootHash: string): AttestationFields | null {
  if (fields === null) return null
  const outputHex = outputContentHash(outputRootHash)
  return {
    contentHash: fields.contentHash === outputHex ? outputHex : ownString(fields.contentHash),
    usageHash: ownString(fields.usageHash),
    providerType: ownString(fields.providerType),
    providerIdentity: ownString(fields.providerIdentity),
    tlsCertFingerprint: ownString(fields.tlsCertFingerprint),
  }
}

function ownString(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1')
}
