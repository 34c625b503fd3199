import { fileURLToPath } from 'node:url'
import { createWalletClient, http } from 'viem'
import { deployContracts } from '../devnet/deployContracts.ts'
import type { Deployment } from '../config/deployment.ts'
import { startNode } from '../devnet/startNode.ts'
import { getFreePort } from '../test/support/getFreePort.ts'
import type { BenchNode } from './parseBenchArgs.ts'
import { startAnvilChain } from './startAnvilChain.ts'
import { benchAccounts } from './benchAccounts.ts'
import { createBenchClients, type BenchClients } from './createBenchClients.ts'

/** The devnet's chain with the memory settings a 100,000-job run needs (see the file). */
const benchConfig = fileURLToPath(new URL('./hardhat.config.cjs', import.meta.url))

export type StartBenchDevnetReturnType = {
  rpcUrl: string
  deployment: Deployment
  clients: BenchClients
  stop: () => Promise<void>
}

export type StartBenchDevnetParameters = { node: BenchNode }

/** A node of the bench's own (hardhat, or anvil: see startAnvilChain) on a free port, with fresh contracts and nothing else. */
export async function startBenchDevnet({ node: kind }: StartBenchDevnetParameters): Promise<StartBenchDevnetReturnType> {
  const node = kind === 'anvil' ? await startAnvilChain() : await startNode({ port: await getFreePort(), config: benchConfig })
  try {
    const clients = createBenchClients({ rpcUrl: node.rpcUrl })
    const wallet = createWalletClient({ chain: clients.public.chain, transport: http(node.rpcUrl), account: benchAccounts.deployer })
    const deployment = await deployContracts(wallet, clients.public)
    return { rpcUrl: node.rpcUrl, deployment, clients, stop: node.stop }
  } catch (error) {
    await node.stop()
    throw error
  }
}
