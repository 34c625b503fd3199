import { fileURLToPath } from 'node:url'
import { bytesToHex, createWalletClient, http } from 'viem'
import { deployContracts } from '../devnet/deployContracts.ts'
import type { Deployment } from '../config/deployment.ts'
import { startNode } from '../devnet/startNode.ts'
import { type TeeRoot, createTeeRoot } from '../devnet/tee/createTeeRoot.ts'
import { servePccs } from '../devnet/tee/servePccs.ts'
import { getFreePort } from '../test/support/getFreePort.ts'
import type { BenchNode } from './parseBenchArgs.ts'
import { startAnvilChain } from './startAnvilChain.ts'
import { benchAccounts } from './benchAccounts.ts'
import { createBenchClients, type BenchClients } from './createBenchClients.ts'

/** The devnet's chain with the memory settings a 100,000-job run needs (see the file). */
const benchConfig = fileURLToPath(new URL('./hardhat.config.cjs', import.meta.url))

export type StartBenchDevnetReturnType = {
  rpcUrl: string
  /** Its `tee` is set: the InferenceServing mock, the PCCS and the root, as the devnet's. */
  deployment: Deployment
  /** The attestation root the PCCS serves the collateral of, to make quotes with. */
  teeRoot: TeeRoot
  clients: BenchClients
  stop: () => Promise<void>
}

export type StartBenchDevnetParameters = { node: BenchNode }

/**
 * A node of the bench's own (hardhat, or anvil: see startAnvilChain) on a free port, with fresh
 * contracts and the devnet's TEE (a fresh root, its PCCS on loopback, the InferenceServing mock),
 * so that an indexer checks services' TEE on it as it does on the devnet; no market yet.
 */
export async function startBenchDevnet({ node: kind }: StartBenchDevnetParameters): Promise<StartBenchDevnetReturnType> {
  const node = kind === 'anvil' ? await startAnvilChain() : await startNode({ port: await getFreePort(), config: benchConfig })
  let closePccs = async (): Promise<void> => undefined
  const stop = async (): Promise<void> => {
    await closePccs()
    await node.stop()
  }
  try {
    const teeRoot = createTeeRoot({ now: new Date() })
    const pccs = await servePccs(teeRoot, { port: 0 })
    closePccs = pccs.close
    const clients = createBenchClients({ rpcUrl: node.rpcUrl })
    const wallet = createWalletClient({ chain: clients.public.chain, transport: http(node.rpcUrl), account: benchAccounts.deployer })
    const deployment = await deployContracts(wallet, clients.public, { tee: { pccsUrl: pccs.url, rootCa: bytesToHex(teeRoot.rootCa) } })
    return { rpcUrl: node.rpcUrl, deployment, teeRoot, clients, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
