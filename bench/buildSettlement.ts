import { encodeFunctionData, type Hex, keccak256, stringToHex } from 'viem'
import { escrowAbi } from '../chain/abi/escrow.ts'
import { buildAttestationText } from '../chain/attestation/buildAttestationText.ts'
import { signAttestation } from '../chain/attestation/signAttestation.ts'
import type { BenchService } from './benchServices.ts'
import type { BatchParameters } from './deployBatchers.ts'

export type BuildSettlementParameters = {
  jobId: bigint
  service: BenchService
}

/** A call to the escrow, for the seller's batcher to make. */
export type BuildSettlementReturnType = BatchParameters['calls'][number]

/** Covers submitAttestation's storage writes (text, signature, hashes; ~420k used) with room to spare. */
const settlementGas = 600_000n

/**
 * The seller's `submitAttestation` for a job: a per-job output, its five-field attestation text
 * signed by the service's signing key (the on-chain verifier checks it), and a fresh chat id.
 */
export async function buildSettlement({ jobId, service }: BuildSettlementParameters): Promise<BuildSettlementReturnType> {
  const outputRootHash = keccak256(stringToHex(`bench output of job ${jobId}`))
  const text = buildBenchAttestationText({ outputRootHash, usageHash: keccak256(stringToHex(`bench usage of job ${jobId}`)), service })
  const signature = await signAttestation(service.signer, { text })
  return {
    gas: settlementGas,
    data: encodeFunctionData({
      abi: escrowAbi,
      functionName: 'submitAttestation',
      args: [jobId, outputRootHash, keccak256(stringToHex(`bench chat ${jobId}`)), text, signature],
    }),
  }
}

const tlsCertFingerprints = new Map<string, Hex>()

/** A bench seller's attestation text: the output it serves, the usage, and its provider's certificate (one per provider). */
export function buildBenchAttestationText({ outputRootHash, usageHash, service }: { outputRootHash: Hex; usageHash: Hex; service: BenchService }): Hex {
  const { providerIdentity } = service
  let tlsCertFingerprint = tlsCertFingerprints.get(providerIdentity)
  if (tlsCertFingerprint === undefined) {
    tlsCertFingerprint = keccak256(stringToHex(`tls certificate of ${providerIdentity}`))
    tlsCertFingerprints.set(providerIdentity, tlsCertFingerprint)
  }
  return buildAttestationText({ contentHash: outputRootHash, usageHash, providerType: 'centralized', providerIdentity, tlsCertFingerprint })
}
