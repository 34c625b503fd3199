import { hexToBytes, hexToString, type ContractFunctionReturnType, type Hex } from 'viem'
import type { escrowAbi } from '../../../chain/abi/escrow.ts'
import type { registryAbi } from '../../../chain/abi/registry.ts'
import type { Job } from '../../../contract/job.ts'
import type { Service } from '../../../contract/service.ts'

/**
 * The oracle's own decoding of the registry's and the escrow's structs into the API's shapes,
 * written from shared/spec/api-decisions.md and the reference's attestation rule, not from the
 * indexer's mappers (chain/mappers), which the suites that use it check. The shapes' types are
 * imported: the type checker, not this code, holds the oracle to the contract's keys.
 */

/** The state names of shared/spec/api-decisions.md, by number. */
const stateNames = ['Pending', 'Sealed', 'Attested', 'Settled', 'Expired', 'Disputed', 'Slashed'] as const

/** `<64 hex>:<64 hex>:<type>:<identity>:<64 hex>`, the reference verifier's text, at least 198 bytes. */
const attestationPattern = /^([0-9a-fA-F]{64}):([0-9a-fA-F]{64}):([^:]*):([^:]*):([0-9a-fA-F]{64})$/

export function decodeService(
  serviceId: bigint,
  struct: ContractFunctionReturnType<typeof registryAbi, 'view', 'getService'>,
): Service {
  // serviceId first, then the struct's fields in their ABI order: some suites compare JSON text.
  return {
    serviceId: String(serviceId),
    ...struct,
    inftTokenId: String(struct.inftTokenId),
    pricePerCall: String(struct.pricePerCall),
    maxInputBytes: String(struct.maxInputBytes),
    registeredAt: String(struct.registeredAt),
  }
}

export function decodeJob(jobId: bigint, struct: ContractFunctionReturnType<typeof escrowAbi, 'view', 'getJob'>): Job {
  const job: Job = {
    jobId: String(jobId),
    serviceId: String(struct.serviceId),
    buyer: struct.buyer,
    seller: struct.seller,
    amount: String(struct.amount),
    protocolFee: String(struct.protocolFee),
    createdAt: String(struct.createdAt),
    timeout: String(struct.timeout),
    state: struct.state,
    stateName: stateNames[struct.state] as Job['stateName'],
    inputCommitment: struct.inputCommitment,
  }
  const holdsAttestation = struct.attestationText !== '0x' || struct.attestationSignature !== '0x'
  if (struct.state < 2 || !holdsAttestation) return job
  return {
    ...job,
    outputRootHash: struct.outputRootHash,
    chatId: struct.chatId,
    attestationText: struct.attestationText,
    attestationSignature: struct.attestationSignature,
    attestation: parseText(struct.attestationText),
  }
}

function parseText(text: Hex): Job['attestation'] {
  if (hexToBytes(text).length < 198) return null
  const match = attestationPattern.exec(hexToString(text))
  if (match === null) return null
  const [contentHash = '', usageHash = '', providerType = '', providerIdentity = '', tlsCertFingerprint = ''] = match.slice(1)
  return { contentHash, usageHash, providerType, providerIdentity, tlsCertFingerprint }
}
