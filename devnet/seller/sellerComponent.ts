import { createPublicClient, http } from 'viem'
import type { DevnetComponent } from '../DevnetComponent.ts'
import { plannedServices } from '../seed/marketPlan.ts'
import { seedProviderAddress, serviceSigningAccount } from '../seed/seedAccounts.ts'
import { plannedTeeRecords } from '../seed/teePlan.ts'
import { createAttester } from '../tee/createAttester.ts'
import { announceSellerUrl } from './announceSellerUrl.ts'
import { seededSellerServices } from './seededSellerServices.ts'
import { startReferenceSeller } from './startReferenceSeller.ts'

/** The seeded service whose key the reference seller's TD attests: its first (service 1). */
const attestedService = plannedServices[0]!

/**
 * The reference seller in `npm start`: answers the seed's services of seller #1, serves
 * attestation reports made with the devnet's TEE root (binding service 1's first signing key),
 * and points the 0G records the seed made for it at the URL it listens on.
 */
export const sellerComponent: DevnetComponent = {
  name: 'seller',
  async start({ config, devnet, log }) {
    const firstServiceId = devnet.seedSummary?.serviceIds[0]
    const services = seededSellerServices(firstServiceId === undefined ? {} : { firstServiceId })
    const attester = createAttester({
      root: devnet.teeRoot,
      signingAddress: serviceSigningAccount({ key: attestedService.key, generation: 1 }).address,
    })
    const seller = await startReferenceSeller({
      rpcUrl: devnet.rpcUrl,
      deployment: devnet.deployment,
      services,
      port: config.sellerPort,
      host: config.host,
      serving: config,
      log,
      attester,
    })
    const inferenceServing = devnet.deployment.tee?.inferenceServing
    if (devnet.seedSummary !== null && inferenceServing !== undefined) {
      const providers = plannedTeeRecords
        .filter(({ url }) => url === 'referenceSeller')
        .map(({ serviceIndex }) => seedProviderAddress(plannedServices[serviceIndex]!.providerIdentity))
      await announceSellerUrl(createPublicClient({ transport: http(devnet.rpcUrl), pollingInterval: 50 }), { inferenceServing, providers, url: seller.url }).catch(
        async (error: unknown) => {
          await seller.stop()
          throw error
        },
      )
    }
    // Its first answers (the seed's Pending jobs) land before npm start sets the chain clock.
    await seller.firstPass
    return {
      urls: {
        'seller outputs': `${seller.url}/outputs/<jobId> (services ${services.map(({ serviceId }) => serviceId).join(', ')})`,
        'seller attestation': `${seller.url}/v1/attestation/report?nonce=<64 hex> and ${seller.url}/v1/quote (service ${firstServiceId ?? 1n}'s key)`,
      },
      stop: seller.stop,
      outputsUrl: seller.url,
    }
  },
}
