import type { Deployment } from '../config/deployment.ts'
import { loadConfig } from '../config/loadConfig.ts'
import { startHostedMcpServer } from '../mcp/hosted/startHostedMcpServer.ts'
import { receiveBenchOptions } from './receiveBenchOptions.ts'
import { unlimitedClientFlags } from './unlimitedClientFlags.ts'

/** What the bench hands a standalone hosted MCP server. */
export type ServeHostedMcpOptions = {
  rpcUrl: string
  deployment: Deployment
  /** A REST indexer to read through; null reads the chain on every call (`--mcp-source chain`). */
  indexerUrl: string | null
}

export type ServeHostedMcpMessage = { type: 'listening'; mcpUrl: string } | { type: 'cpu'; micros: number }

/**
 * A hosted MCP server in its own process, as `npm run mcp:hosted` runs it apart from the indexer:
 * the two modes whose cost the bench sets beside the in-process one.
 */
const { rpcUrl, deployment, indexerUrl } = await receiveBenchOptions<ServeHostedMcpOptions>()
const config = loadConfig({
  argv: [
    '--network', 'devnet',
    '--rpc-url', rpcUrl,
    '--chain-id', String(deployment.chainId),
    '--registry', deployment.registry,
    '--escrow', deployment.escrow,
    '--arbiter', deployment.arbiter,
    '--attestation-verifier', deployment.attestationVerifier,
    '--host', '127.0.0.1',
    '--mcp-port', '0',
    ...(indexerUrl === null ? ['--mcp-source', 'chain'] : ['--indexer-url', indexerUrl]),
    ...unlimitedClientFlags,
  ],
  env: {},
})
const mcp = await startHostedMcpServer(config, { log: (message) => process.stderr.write(`${message}\n`) })
const send = (message: ServeHostedMcpMessage): void => {
  process.send?.(message)
}
send({ type: 'listening', mcpUrl: `${mcp.url}/mcp` })
process.on('message', (message: { type: string }) => {
  if (message.type !== 'cpu') return
  const { user, system } = process.cpuUsage()
  send({ type: 'cpu', micros: user + system })
})
const stop = async (): Promise<void> => {
  await mcp.close()
  process.exit(0)
}
process.once('SIGTERM', () => void stop())
process.once('disconnect', () => void stop())
