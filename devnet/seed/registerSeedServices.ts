import { encodeFunctionData, stringToHex } from 'viem'
import { chatCapabilityHash } from './chatCapabilityHash.ts'
import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { plannedServices, serviceBond } from './marketPlan.ts'
import { seedProviderAddress, serviceSigningAccount } from './seedAccounts.ts'
import type { SeedRun } from './SeedRun.ts'

/** Registers the planned services one by one (their order fixes the ids), then stakes each one's bond. */
export async function registerSeedServices({ deployment, serviceIds, step, sellerOf }: SeedRun): Promise<void> {
  for (const [index, service] of plannedServices.entries()) {
    const signingAddress = serviceSigningAccount({ key: service.key, generation: 1 }).address
    await step(`register service ${service.key}`, () =>
      sellerOf(index).send({
        to: deployment.registry,
        data: encodeFunctionData({
          abi: registryAbi,
          functionName: 'registerService',
          args: [
            chatCapabilityHash(service.modelId),
            service.modelId,
            seedProviderAddress(service.providerIdentity),
            signingAddress,
            service.providerIdentity,
            'centralized',
            service.targetSeparated,
            service.pricePerCall,
            service.maxInputBytes,
            stringToHex(`ipfs://tee-market-devnet/agents/${service.key}.json`),
          ],
        }),
      }),
    )
  }
  await Promise.all(
    serviceIds.map((serviceId, index) =>
      step(`stake the bond of service ${serviceId}`, () =>
        sellerOf(index).send({
          to: deployment.arbiter,
          data: encodeFunctionData({ abi: arbiterAbi, functionName: 'stakeBond', args: [serviceId] }),
          value: serviceBond,
        }),
      ),
    ),
  )
}
