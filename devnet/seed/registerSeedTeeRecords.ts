import { type Address, encodeFunctionData } from 'viem'
import { inferenceServingMockAbi } from '../../chain/abi/inferenceServingMock.ts'
import { sendAsImpersonated } from '../tee/sendAsImpersonated.ts'
import { plannedServices, rotatedServiceIndex } from './marketPlan.ts'
import { seedProviderAddress, serviceSigningAccount } from './seedAccounts.ts'
import type { SeedRun } from './SeedRun.ts'
import { type PlannedTeeRecord, closedPortUrl, defaultReferenceSellerUrl, plannedTeeRecords } from './teePlan.ts'

/** A seeded service's signing address once the seed is done (the rotated service's second key). */
function currentSigningAddress(serviceIndex: number): Address {
  const generation = serviceIndex === rotatedServiceIndex ? 2 : 1
  return serviceSigningAccount({ key: plannedServices[serviceIndex]!.key, generation }).address
}

/** The record as 0G's provider broker registers it: a chatbot verified by TeeML, prices per token. */
function recordParams({ serviceIndex, url }: PlannedTeeRecord) {
  const service = plannedServices[serviceIndex]!
  return {
    serviceType: 'chatbot',
    url: url === 'referenceSeller' ? defaultReferenceSellerUrl : closedPortUrl,
    model: service.modelId,
    verifiability: 'TeeML',
    inputPrice: service.pricePerCall / 1_000n,
    outputPrice: service.pricePerCall / 500n,
    additionalInfo: JSON.stringify({ TargetSeparated: service.targetSeparated }),
    teeSignerAddress: currentSigningAddress(serviceIndex),
  }
}

/**
 * Registers the planned 0G provider records (teePlan.ts) on the devnet's InferenceServing mock,
 * each sent by its provider (impersonated: a provider is the sender of its record), then has the
 * owner (the deployer) acknowledge the planned signers. Runs after the key rotation, so each
 * record names its service's current key. The reference seller's records point at its default
 * URL until it starts and announces where it listens (announceSellerUrl).
 */
export async function registerSeedTeeRecords({ client, deployment, deployer, step }: SeedRun): Promise<void> {
  const inferenceServing = deployment.tee?.inferenceServing
  if (inferenceServing === undefined) return
  await Promise.all(
    plannedTeeRecords.map((planned) => {
      const provider = seedProviderAddress(plannedServices[planned.serviceIndex]!.providerIdentity)
      return step(`register the 0G record of provider ${provider}`, () =>
        sendAsImpersonated(client, {
          from: provider,
          to: inferenceServing,
          data: encodeFunctionData({ abi: inferenceServingMockAbi, functionName: 'addOrUpdateService', args: [recordParams(planned)] }),
        }),
      )
    }),
  )
  await Promise.all(
    plannedTeeRecords
      .filter(({ acknowledged }) => acknowledged)
      .map(({ serviceIndex }) => {
        const provider = seedProviderAddress(plannedServices[serviceIndex]!.providerIdentity)
        return step(`acknowledge the TEE signer of provider ${provider}`, () =>
          deployer.send({
            to: inferenceServing,
            data: encodeFunctionData({ abi: inferenceServingMockAbi, functionName: 'acknowledgeTEESignerByOwner', args: [provider] }),
          }),
        )
      }),
  )
}
