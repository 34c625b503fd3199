import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { NodeStartError } from '../errors/devnet.ts'
import { devnetMnemonic } from '../devnet/seed/seedAccounts.ts'
import { requestChainId } from '../devnet/startNode.ts'
import { watchNodeProcess } from '../devnet/watchNodeProcess.ts'
import { getFreePort } from '../test/support/getFreePort.ts'

const readyTimeoutMs = 30_000

/** The platform packages `@foundry-rs/anvil` installs its binary from, by Node's names. */
const platformPackages: Record<string, string> = {
  'linux-x64': 'linux-amd64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-amd64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'win32-amd64',
}

/**
 * The devnet's chain as the bench's hardhat node has it (chain 31337, 30 accounts of the devnet
 * mnemonic with 1,000,000 ETH, hardhat 2.29's 60M block gas limit and hardfork), for anvil.
 */
const chainArgs = [
  '--chain-id', '31337',
  '--mnemonic', devnetMnemonic,
  '--accounts', '30',
  '--balance', '1000000',
  '--gas-limit', '60000000',
  '--hardfork', 'osaka',
  '--silent',
]

export type StartAnvilChainReturnType = {
  rpcUrl: string
  stop: () => Promise<void>
}

/**
 * Two anvil nodes: one holding only the genesis state, and the one returned, which forks it at
 * block 0 and mines everything the bench sends. Forked, anvil leaves the state root of its blocks
 * unset instead of rebuilding the whole state trie at every block, the cost that grows with the
 * market (a million jobs: hours, against minutes). Blocks, receipts and logs are its own and
 * complete; only state it never wrote (none: the chain starts empty) would be read from genesis.
 * `--prune-history` keeps no state per block (else ~400 KB a job): calls are answered at the head.
 */
export async function startAnvilChain(): Promise<StartAnvilChainReturnType> {
  const genesis = await startAnvil([])
  try {
    const head = await startAnvil([
      '--fork-url', genesis.rpcUrl,
      '--fork-block-number', '0',
      '--prune-history',
      // A JSON-RPC batch of the generator's transactions passes anvil's default 2 MB.
      '--no-request-size-limit',
    ])
    return {
      rpcUrl: head.rpcUrl,
      stop: async () => {
        await head.stop()
        await genesis.stop()
      },
    }
  } catch (error) {
    await genesis.stop()
    throw error
  }
}

function anvilBinary(): string {
  const suffix = platformPackages[`${process.platform}-${process.arch}`]
  if (suffix === undefined) throw new NodeStartError({ rpcUrl: '', output: `No anvil binary is published for ${process.platform}-${process.arch}.`, node: 'anvil' })
  const require = createRequire(import.meta.url)
  const manifest = require.resolve(`@foundry-rs/anvil-${suffix}/package.json`)
  return join(dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
}

async function startAnvil(extra: string[]): Promise<StartAnvilChainReturnType> {
  const host = '127.0.0.1'
  const port = await getFreePort()
  const rpcUrl = `http://${host}:${port}`
  const child = spawn(anvilBinary(), ['--host', host, '--port', String(port), ...chainArgs, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] })
  const node = watchNodeProcess(child)

  const deadline = Date.now() + readyTimeoutMs
  let lastError: unknown
  while (Date.now() < deadline) {
    if (node.hasExited) throw new NodeStartError({ rpcUrl, output: node.output, node: 'anvil' })
    try {
      const chainId = await requestChainId(rpcUrl)
      if (chainId === 31337) return { rpcUrl, stop: node.stop }
      lastError = new Error(`unexpected chainId ${chainId}`)
    } catch (error) {
      lastError = error
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  await node.stop()
  throw new NodeStartError({ rpcUrl, output: node.output, cause: lastError, node: 'anvil' })
}
