import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { NodeStartError, PortInUseError } from '../errors/devnet.ts'
import { watchNodeProcess } from './watchNodeProcess.ts'

const projectRoot = fileURLToPath(new URL('..', import.meta.url))
const hardhatBin = fileURLToPath(new URL('../node_modules/hardhat/internal/cli/bootstrap.js', import.meta.url))
const devnetConfig = fileURLToPath(new URL('./hardhat.config.cjs', import.meta.url))
// Hardhat keeps analytics consent and caches under the user's data dirs; keep them in the project.
const hardhatHome = fileURLToPath(new URL('../node_modules/.cache/hardhat-home', import.meta.url))

export type StartNodeParameters = {
  port: number
  host?: string
  /** How long to wait for `eth_chainId` to answer. */
  readyTimeoutMs?: number
  /** A hardhat config of the same chain (the bench's adds memory settings); the devnet's by default. */
  config?: string
  /** The chain clock's start (hardhat's `initialDate`); the wall clock when absent. Read by the devnet's config only. */
  initialDate?: Date | undefined
}

export type StartNodeReturnType = {
  rpcUrl: string
  stop: () => Promise<void>
  /** Settles when the node process ends, whether through `stop()` or not. */
  exited: Promise<void>
}

/** What hardhat prints once its own server listens: until then an answer may come from another node. */
const listeningLine = 'Started HTTP and WebSocket JSON-RPC server at'

/**
 * Spawns `hardhat node` (chainId 31337, the standard test mnemonic's accounts funded) and
 * resolves once it says it listens and answers `eth_chainId`. A port already taken is
 * PortInUseError before anything is spawned: a node already there (a devnet left running, or
 * anyone's) would answer `eth_chainId` too, and the caller would deploy onto it.
 */
export async function startNode({
  port,
  host = '127.0.0.1',
  readyTimeoutMs = 30_000,
  config = devnetConfig,
  initialDate,
}: StartNodeParameters): Promise<StartNodeReturnType> {
  const rpcUrl = `http://${host}:${port}`
  await assertPortFree({ host, port })
  const child = spawn(
    process.execPath,
    [hardhatBin, 'node', '--hostname', host, '--port', String(port), '--config', config],
    {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
        CI: 'true',
        NO_COLOR: '1',
        XDG_CONFIG_HOME: hardhatHome,
        XDG_DATA_HOME: hardhatHome,
        XDG_CACHE_HOME: hardhatHome,
        DEVNET_INITIAL_DATE: initialDate?.toISOString() ?? '',
      },
    },
  )

  let listening = false
  const node = watchNodeProcess(child, {
    onOutput: (output) => {
      listening ||= output.includes(listeningLine)
    },
  })

  const deadline = Date.now() + readyTimeoutMs
  let lastError: unknown
  while (Date.now() < deadline) {
    if (node.hasExited) throw new NodeStartError({ rpcUrl, output: node.output })
    if (!listening) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      continue
    }
    try {
      const chainId = await requestChainId(rpcUrl)
      if (chainId === 31337) return { rpcUrl, stop: node.stop, exited: node.exited }
      lastError = new Error(`unexpected chainId ${chainId}`)
    } catch (error) {
      lastError = error
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await node.stop()
  throw new NodeStartError({ rpcUrl, output: node.output, cause: lastError })
}

/** Throws PortInUseError when something listens on the port (probed by listening there for a moment). */
async function assertPortFree({ host, port }: { host: string; port: number }): Promise<void> {
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new PortInUseError({ host, port }) : error)
    })
    probe.listen(port, host, () => probe.close(() => resolve()))
  })
}

/** The chain id a node at `rpcUrl` answers, within 2 s. */
export async function requestChainId(rpcUrl: string): Promise<number> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(2_000),
  })
  const body = (await response.json()) as { result?: string }
  if (typeof body.result !== 'string') throw new Error('eth_chainId returned no result')
  return Number.parseInt(body.result, 16)
}
