import { startSeedSeller } from '../../devnet/seller/startSeedSeller.ts'
import type { StartReferenceSellerParameters, StartReferenceSellerReturnType } from '../../devnet/seller/startReferenceSeller.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'

export type StartSeededSellerOptions = Omit<StartReferenceSellerParameters, 'rpcUrl' | 'deployment' | 'services' | 'attester'>

/**
 * The reference seller as `npm start` runs it (its services, its attestation reports, its 0G
 * records pointed at it) on a test devnet, on a free port, polling every 100 ms so a test's job is
 * answered at once.
 */
export function startSeededSeller(
  devnet: Pick<StartDevnetReturnType, 'rpcUrl' | 'deployment' | 'teeRoot' | 'seedSummary'>,
  options: Partial<StartSeededSellerOptions> = {},
): Promise<StartReferenceSellerReturnType> {
  return startSeedSeller({ devnet, port: 0, pollingIntervalMs: 100, ...options })
}
