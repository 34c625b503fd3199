import { type Chain, type Client, type Hash, type Transport, parseGwei } from 'viem'
import { getBlock, getChainId, readContract } from 'viem/actions'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import type { Deployment } from '../../config/deployment.ts'
import { SeedError } from '../../errors/devnet.ts'
import { createNonceSender, type NonceSender } from './createNonceSender.ts'
import { plannedJobs, plannedServices } from './marketPlan.ts'
import { seedAccounts } from './seedAccounts.ts'
import type { SeedRun } from './SeedRun.ts'

/** Reads the ids the contracts will hand out next and prepares a nonce sender per seed account. */
export async function startSeedRun(client: Client<Transport, Chain | undefined>, deployment: Deployment): Promise<SeedRun> {
  const { registry, escrow } = deployment
  const chainId = await getChainId(client)
  const latest = await getBlock(client)
  // Empty blocks only lower the base fee, so twice today's covers the whole seed.
  const maxPriorityFeePerGas = parseGwei('1')
  const maxFeePerGas = (latest.baseFeePerGas ?? parseGwei('1')) * 2n + maxPriorityFeePerGas
  const senderFor = (account: (typeof seedAccounts)['deployer']): NonceSender =>
    createNonceSender(client, { account, chainId, maxFeePerGas, maxPriorityFeePerGas })
  const sellers = seedAccounts.sellers.map(senderFor)
  const buyers = seedAccounts.buyers.map(senderFor)

  const [firstServiceId, firstJobId] = await Promise.all([
    readContract(client, { address: registry, abi: registryAbi, functionName: 'nextServiceId' }),
    readContract(client, { address: escrow, abi: escrowAbi, functionName: 'nextJobId' }),
  ])
  const sent: Hash[] = []
  return {
    client,
    deployment,
    deployer: senderFor(seedAccounts.deployer),
    sellers,
    buyers,
    serviceIds: plannedServices.map((_, index) => firstServiceId + BigInt(index)),
    jobIds: plannedJobs.map((_, index) => firstJobId + BigInt(index)),
    sent,
    sellerOf: (serviceIndex) => sellers[plannedServices[serviceIndex]!.seller]!,
    async step(name, run) {
      try {
        const result = await run()
        if (typeof result === 'string') sent.push(result)
        return result
      } catch (cause) {
        throw new SeedError(name, { cause })
      }
    },
  }
}
