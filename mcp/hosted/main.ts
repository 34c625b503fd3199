import { refuseUnsupportedNode } from '../../config/refuseUnsupportedNode.ts'
import { answerInfoFlags } from '../../config/answerInfoFlags.ts'
import { describeConfigFlags } from '../../config/describeConfigFlags.ts'
import { loadConfig } from '../../config/loadConfig.ts'
import { createLogger } from '../../platform/logging/createLogger.ts'
import { startHostedMcpServer } from './startHostedMcpServer.ts'

refuseUnsupportedNode()

// Hosted MCP server: `npm run mcp:hosted -- [--network devnet|0g-mainnet] [--mcp-port 8081]
// [--host 127.0.0.1] --indexer-url http://127.0.0.1:8080 | --mcp-source chain [--allowed-hosts mcp.example.org]
// [--allowed-origins https://app.example.org] [--metrics on|off|<port>] [--log-level info]`
// (or MCP_PORT, HOST, INDEXER_URL, MCP_ALLOWED_HOSTS, METRICS, LOG_LEVEL, ...). Logs to stderr.

const usage = `Usage: npm run mcp:hosted -- [options]

The hosted MCP server (Streamable HTTP at /mcp, five read tools) on --host:--mcp-port, apart
from the indexer: reading a REST indexer (--indexer-url), or the node on every tool call
(--mcp-source chain). To serve it from the indexer's own store: npm run serve -- --mcp-port <port>.

  -h, --help     print this and exit
  -V, --version  print the version and exit
${describeConfigFlags()}`

if (answerInfoFlags(process.argv.slice(2), { usage })) process.exit(0)

try {
  const config = loadConfig({ argv: process.argv.slice(2), env: process.env })
  const logger = createLogger({ level: config.logLevel, base: { service: 'mcp' } })
  const server = await startHostedMcpServer(config, { logger })
  const stop = (signal: NodeJS.Signals): void => {
    logger.info({ signal }, 'stopping')
    void server.close().then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
}
