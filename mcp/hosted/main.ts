import { answerInfoFlags } from '../../config/answerInfoFlags.ts'
import { describeConfigFlags } from '../../config/describeConfigFlags.ts'
import { loadConfig } from '../../config/loadConfig.ts'
import { startHostedMcpServer } from './startHostedMcpServer.ts'

// Hosted MCP server: `npm run mcp:hosted -- [--network devnet|0g-mainnet] [--mcp-port 8081]
// [--host 127.0.0.1] [--indexer-url http://127.0.0.1:8080] [--allowed-hosts mcp.example.org]
// [--allowed-origins https://app.example.org]` (or MCP_PORT, HOST, INDEXER_URL, MCP_ALLOWED_HOSTS, ...).
const log = (message: string): void => {
  process.stderr.write(`${message}\n`)
}

const usage = `Usage: npm run mcp:hosted -- [options]

The hosted MCP server (Streamable HTTP at /mcp, four read tools) on --host:--mcp-port.

  -h, --help     print this and exit
  -V, --version  print the version and exit
${describeConfigFlags()}`

if (answerInfoFlags(process.argv.slice(2), { usage })) process.exit(0)

try {
  const config = loadConfig({ argv: process.argv.slice(2), env: process.env })
  const server = await startHostedMcpServer(config, { log })
  const source = config.indexerUrl === null ? `chain ${config.rpcUrl}` : `indexer ${config.indexerUrl}`
  log(`tee-market-mcp (hosted, 4 tools) on ${server.url}/mcp, network ${config.network}, reading ${source}`)
  const stop = (): void => {
    void server.close().then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
} catch (error) {
  log(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
