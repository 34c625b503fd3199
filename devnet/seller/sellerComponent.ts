import type { DevnetComponent } from '../DevnetComponent.ts'
import { seededSellerServices } from './seededSellerServices.ts'
import { startReferenceSeller } from './startReferenceSeller.ts'

/** The reference seller in `npm start`: answers the seed's services of seller #1. */
export const sellerComponent: DevnetComponent = {
  name: 'seller',
  async start({ config, devnet, log }) {
    const firstServiceId = devnet.seedSummary?.serviceIds[0]
    const services = seededSellerServices(firstServiceId === undefined ? {} : { firstServiceId })
    const seller = await startReferenceSeller({
      rpcUrl: devnet.rpcUrl,
      deployment: devnet.deployment,
      services,
      port: config.sellerPort,
      host: config.host,
      serving: config,
      log,
    })
    return {
      urls: { 'seller outputs': `${seller.url}/outputs/<jobId> (services ${services.map(({ serviceId }) => serviceId).join(', ')})` },
      stop: seller.stop,
      outputsUrl: seller.url,
    }
  },
}
