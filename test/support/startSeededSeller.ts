import { seededSellerServices } from '../../devnet/seller/seededSellerServices.ts'
import {
  startReferenceSeller,
  type StartReferenceSellerParameters,
  type StartReferenceSellerReturnType,
} from '../../devnet/seller/startReferenceSeller.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'

export type StartSeededSellerOptions = Omit<StartReferenceSellerParameters, 'rpcUrl' | 'deployment' | 'services'>

/**
 * The reference seller answering the seeded seller #1's services on a test devnet, on a free port,
 * polling every 100 ms so a test's job is answered at once.
 */
export function startSeededSeller(
  devnet: Pick<StartDevnetReturnType, 'rpcUrl' | 'deployment'>,
  options: Partial<StartSeededSellerOptions> = {},
): Promise<StartReferenceSellerReturnType> {
  return startReferenceSeller({
    rpcUrl: devnet.rpcUrl,
    deployment: devnet.deployment,
    services: seededSellerServices(),
    port: 0,
    pollingIntervalMs: 100,
    ...options,
  })
}
