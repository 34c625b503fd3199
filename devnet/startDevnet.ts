import { createPublicClient, createTestClient, createWalletClient, http } from 'viem'
import { hardhat } from 'viem/chains'
import { deployContracts } from './deployContracts.ts'
import type { Deployment } from '../config/deployment.ts'
import { seedAccounts } from './seed/seedAccounts.ts'
import { seedMarket, type SeedMarketReturnType } from './seedMarket.ts'
import { setChainClockToNow } from './seed/setChainClockToNow.ts'
import { startNode } from './startNode.ts'
import { writeDeploymentRecord } from './writeDeploymentRecord.ts'

export type StartDevnetParameters = {
  port: number
  host?: string
  /** Fill the market with the deterministic demo data. */
  seed?: boolean
  /** Where to write the deployment record; not written when absent. */
  deploymentPath?: string
}

export type StartDevnetReturnType = {
  rpcUrl: string
  deployment: Deployment
  /** Null when started with `seed: false`. */
  seedSummary: SeedMarketReturnType | null
  stop: () => Promise<void>
  /** Settles when the node process ends, whether through `stop()` or not. */
  exited: Promise<void>
}

/**
 * How far in the past a seeded chain's clock starts: above the seed's own time and its time travel
 * past the short timeouts (devnet/seed/marketPlan.ts), so that its whole history lies before now.
 */
const seededHistoryLeadMs = 60 * 60_000

/**
 * Starts a hardhat node, deploys the marketplace contracts from account #0 and seeds the market.
 * A seeded chain starts its clock an hour back and ends at the wall clock.
 */
export async function startDevnet({
  port,
  host = '127.0.0.1',
  seed = true,
  deploymentPath,
}: StartDevnetParameters): Promise<StartDevnetReturnType> {
  const node = await startNode({ port, host, initialDate: seed ? new Date(Date.now() - seededHistoryLeadMs) : undefined })
  try {
    const chain = { ...hardhat, rpcUrls: { default: { http: [node.rpcUrl] } } }
    // The node automines, so a receipt exists as soon as its transaction is accepted.
    const transport = http(node.rpcUrl)
    const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 })
    const walletClient = createWalletClient({ chain, transport, account: seedAccounts.deployer, pollingInterval: 50 })
    const deployment = await deployContracts(walletClient, publicClient)
    const seedSummary = seed ? await seedMarket(publicClient, { deployment }) : null
    if (seed) await setChainClockToNow(createTestClient({ chain, transport, mode: 'hardhat' }))
    if (deploymentPath !== undefined) writeDeploymentRecord(deploymentPath, deployment)
    return { rpcUrl: node.rpcUrl, deployment, seedSummary, stop: node.stop, exited: node.exited }
  } catch (error) {
    await node.stop()
    throw error
  }
}
