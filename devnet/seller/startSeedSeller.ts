import { createPublicClient, http } from 'viem'
import { plannedServices } from '../seed/marketPlan.ts'
import { seedProviderAddress, serviceSigningAccount } from '../seed/seedAccounts.ts'
import { plannedTeeRecords } from '../seed/teePlan.ts'
import { createAttester } from '../tee/createAttester.ts'
import type { StartDevnetReturnType } from '../startDevnet.ts'
import { announceSellerUrl } from './announceSellerUrl.ts'
import { seededSellerServices } from './seededSellerServices.ts'
import { startReferenceSeller, type StartReferenceSellerParameters, type StartReferenceSellerReturnType } from './startReferenceSeller.ts'

/** The seeded service whose key the reference seller's TD attests: its first (service 1). */
const attestedService = plannedServices[0]!

export type StartSeedSellerParameters = Omit<StartReferenceSellerParameters, 'rpcUrl' | 'deployment' | 'services' | 'attester'> & {
  devnet: Pick<StartDevnetReturnType, 'rpcUrl' | 'deployment' | 'teeRoot' | 'seedSummary'>
}

/**
 * The reference seller for the seeded market: answers seller #1's services, serves attestation
 * reports made with the devnet's TEE root (binding service 1's first signing key), and points the
 * 0G records the seed made for it at the URL it listens on, as 0G's provider broker does at start.
 */
export async function startSeedSeller({ devnet, ...options }: StartSeedSellerParameters): Promise<StartReferenceSellerReturnType> {
  const firstServiceId = devnet.seedSummary?.serviceIds[0]
  const attester = createAttester({
    root: devnet.teeRoot,
    signingAddress: serviceSigningAccount({ key: attestedService.key, generation: 1 }).address,
  })
  const seller = await startReferenceSeller({
    ...options,
    rpcUrl: devnet.rpcUrl,
    deployment: devnet.deployment,
    services: seededSellerServices(firstServiceId === undefined ? {} : { firstServiceId }),
    attester,
  })
  const inferenceServing = devnet.deployment.tee?.inferenceServing
  if (devnet.seedSummary === null || inferenceServing === undefined) return seller
  const providers = plannedTeeRecords
    .filter(({ url }) => url === 'referenceSeller')
    .map(({ serviceIndex }) => seedProviderAddress(plannedServices[serviceIndex]!.providerIdentity))
  await announceSellerUrl(createPublicClient({ transport: http(devnet.rpcUrl), pollingInterval: 50 }), { inferenceServing, providers, url: seller.url }).catch(
    async (error: unknown) => {
      await seller.stop()
      throw error
    },
  )
  return seller
}
