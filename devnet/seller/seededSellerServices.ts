import { plannedServices, referenceSellerIndex } from '../seed/marketPlan.ts'
import { seedAccounts, serviceSigningAccount } from '../seed/seedAccounts.ts'
import type { ReferenceSellerService } from './startReferenceSeller.ts'

/** Signing-key generations offered per service: the seed's first key and one rotation. */
const signingKeyGenerations = [1, 2]

export type SeededSellerServicesParameters = {
  /** The first id the seed registered (`nextServiceId` before seeding): 1 on a fresh devnet. */
  firstServiceId?: bigint
}

/**
 * The seeded services the reference seller serves in `npm start`, with the seed's own keys:
 * seller #1's services only, so the Pending jobs the seed leaves to sellers #2 and #3 stay
 * Pending.
 */
export function seededSellerServices({
  firstServiceId = 1n,
}: SeededSellerServicesParameters = {}): ReferenceSellerService[] {
  const seller = seedAccounts.sellers[referenceSellerIndex]
  return plannedServices.flatMap((service, index) =>
    service.seller === referenceSellerIndex
      ? [
          {
            serviceId: firstServiceId + BigInt(index),
            sellerKey: seller,
            signingKey: signingKeyGenerations.map((generation) =>
              serviceSigningAccount({ key: service.key, generation }),
            ),
          },
        ]
      : [],
  )
}
