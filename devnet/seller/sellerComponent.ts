import type { DevnetComponent } from '../DevnetComponent.ts'
import { seededSellerServices } from './seededSellerServices.ts'
import { startSeedSeller } from './startSeedSeller.ts'

/**
 * The reference seller in `npm start`: answers the seed's services of seller #1, serves
 * attestation reports made with the devnet's TEE root (binding service 1's first signing key),
 * and points the 0G records the seed made for it at the URL it listens on.
 */
export const sellerComponent: DevnetComponent = {
  name: 'seller',
  async start({ config, devnet, log }) {
    const seller = await startSeedSeller({ devnet, port: config.sellerPort, host: config.host, serving: config, log })
    const firstServiceId = devnet.seedSummary?.serviceIds[0]
    const services = seededSellerServices(firstServiceId === undefined ? {} : { firstServiceId })
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
