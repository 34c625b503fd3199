import { type Hash, encodeFunctionData, keccak256, stringToHex } from 'viem'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { buildAttestationText } from '../../chain/attestation/buildAttestationText.ts'
import { signAttestation } from '../../chain/attestation/signAttestation.ts'
import { plannedJobs, plannedServices, prompts } from './marketPlan.ts'
import { serviceSigningAccount } from './seedAccounts.ts'
import type { SeedRun } from './SeedRun.ts'

/** Submits the seller's attested answer to a planned job, signed with the service's key of `generation`. */
export async function answerSeedJob({ deployment, jobIds, sellerOf }: SeedRun, index: number, generation: number): Promise<Hash> {
  const job = plannedJobs[index]!
  const service = plannedServices[job.serviceIndex]!
  const jobId = jobIds[index]!
  const output = `[${service.modelId}] Seeded answer to job ${jobId}: ${prompts[index % prompts.length]}`
  const outputRootHash = keccak256(stringToHex(output))
  const text = buildAttestationText({
    contentHash: outputRootHash,
    usageHash: keccak256(stringToHex(JSON.stringify({ jobId: jobId.toString(), model: service.modelId }))),
    providerType: 'centralized',
    providerIdentity: service.providerIdentity,
    tlsCertFingerprint: keccak256(stringToHex(`tls certificate of ${service.providerIdentity}`)),
  })
  const signature = await signAttestation(serviceSigningAccount({ key: service.key, generation }), { text })
  const chatId = keccak256(stringToHex(`tee-market devnet seed chat ${jobId}`))
  return sellerOf(job.serviceIndex).send({
    to: deployment.escrow,
    data: encodeFunctionData({
      abi: escrowAbi,
      functionName: 'submitAttestation',
      args: [jobId, outputRootHash, chatId, text, signature],
    }),
  })
}
