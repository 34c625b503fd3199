import { bytesToHex, createPublicClient, createTestClient, createWalletClient, http } from 'viem'
import { hardhat } from 'viem/chains'
import { deployContracts } from './deployContracts.ts'
import type { Deployment } from '../config/deployment.ts'
import { seedAccounts } from './seed/seedAccounts.ts'
import { seedMarket, type SeedMarketReturnType } from './seedMarket.ts'
import { setChainClockToNow } from './seed/setChainClockToNow.ts'
import { startNode } from './startNode.ts'
import { writeDeploymentRecord } from './writeDeploymentRecord.ts'
import { type TeeRoot, createTeeRoot } from './tee/createTeeRoot.ts'
import { servePccs } from './tee/servePccs.ts'
import { PortInUseError } from '../errors/devnet.ts'

export type StartDevnetParameters = {
  port: number
  host?: string
  /** Fill the market with the deterministic demo data. */
  seed?: boolean
  /** Where to write the deployment record; not written when absent. */
  deploymentPath?: string
  /** The PCCS's port (see servePccs); 0, the default, picks a free one. */
  pccsPort?: number
  /**
   * Set a seeded chain's clock to the wall clock before returning (default true). `npm start`
   * does it itself once its components have sent their first transactions (the reference seller
   * points its 0G records at its URL): blocks mined within a second of each other each add one,
   * and would leave the chain's clock ahead of the wall clock.
   */
  setClockToNow?: boolean
}

export type StartDevnetReturnType = {
  rpcUrl: string
  /** Its `tee` is always set: the devnet's InferenceServing mock, PCCS and root. */
  deployment: Deployment
  /**
   * The devnet's TEE root, keys included, for the devnet's own components only (the reference
   * seller makes its quotes with it); held in memory, never written anywhere.
   */
  teeRoot: TeeRoot
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
 * The devnet's TEE root and collateral outlive any devnet: made at each start, valid for a year
 * (its certificates for ten), so no verdict of a running devnet expires with its collateral.
 */
const teeCollateralValidForMs = 365 * 86_400_000

/**
 * Starts a hardhat node and the devnet's TEE (a fresh attestation root and the PCCS serving its
 * collateral), deploys the marketplace contracts and the InferenceServing mock from account #0
 * and seeds the market. A seeded chain starts its clock an hour back and ends at the wall clock.
 */
export async function startDevnet({
  port,
  host = '127.0.0.1',
  seed = true,
  deploymentPath,
  pccsPort = 0,
  setClockToNow = true,
}: StartDevnetParameters): Promise<StartDevnetReturnType> {
  const node = await startNode({ port, host, initialDate: seed ? new Date(Date.now() - seededHistoryLeadMs) : undefined })
  let closePccs = async (): Promise<void> => undefined
  const stop = async (): Promise<void> => {
    await closePccs()
    await node.stop()
  }
  try {
    const teeRoot = createTeeRoot({ now: new Date(), collateralValidForMs: teeCollateralValidForMs })
    const pccs = await servePccs(teeRoot, { host, port: pccsPort }).catch((error: unknown) => {
      throw (error as { code?: string }).code === 'EADDRINUSE' ? new PortInUseError({ host, port: pccsPort, flag: '--pccs-port', what: 'the devnet PCCS' }) : error
    })
    closePccs = pccs.close
    const chain = { ...hardhat, rpcUrls: { default: { http: [node.rpcUrl] } } }
    // The node automines, so a receipt exists as soon as its transaction is accepted.
    const transport = http(node.rpcUrl)
    const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 })
    const walletClient = createWalletClient({ chain, transport, account: seedAccounts.deployer, pollingInterval: 50 })
    const deployment = await deployContracts(walletClient, publicClient, { tee: { pccsUrl: pccs.url, rootCa: bytesToHex(teeRoot.rootCa) } })
    const seedSummary = seed ? await seedMarket(publicClient, { deployment }) : null
    if (seed && setClockToNow) await setChainClockToNow(createTestClient({ chain, transport, mode: 'hardhat' }))
    if (deploymentPath !== undefined) writeDeploymentRecord(deploymentPath, deployment)
    return { rpcUrl: node.rpcUrl, deployment, teeRoot, seedSummary, stop, exited: node.exited }
  } catch (error) {
    await stop()
    throw error
  }
}
