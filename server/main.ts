import { refuseUnsupportedNode } from '../config/refuseUnsupportedNode.ts'
import { answerInfoFlags } from '../config/answerInfoFlags.ts'
import { describeConfigFlags } from '../config/describeConfigFlags.ts'
import { loadConfig } from '../config/loadConfig.ts'
import { isSettingGiven } from '../config/isSettingGiven.ts'
import { BaseError } from '../errors/BaseError.ts'
import { startHostedMcpServer } from '../mcp/hosted/startHostedMcpServer.ts'
import { startRestIndexer } from './startRestIndexer.ts'
import { checkIndexerNode, createNodeTransports } from './indexer/startIndexer.ts'
import { createLogger } from '../platform/logging/createLogger.ts'

refuseUnsupportedNode()

/**
 * The REST indexer: `npm run serve -- [--network devnet|0g-mainnet] [--port 8080] [--host 127.0.0.1]
 * [--mcp-port 8081]` (or PORT, HOST, MCP_PORT, ...; see config/loadConfig.ts). With --mcp-port, the
 * hosted MCP server too, reading the same store. Prints the URLs it serves on to stdout; logs go
 * to stderr as JSON lines (readable lines on a terminal), at --log-level / LOG_LEVEL.
 */
const usage = `Usage: npm run serve -- [options]

The REST indexer: follows the chain and serves the API on --host:--port. Given --mcp-port (or
MCP_PORT), also the hosted MCP server on --host:--mcp-port, answering from the same index: its
tool calls cost the node nothing.

  -h, --help     print this and exit
  -V, --version  print the version and exit
${describeConfigFlags()}`

if (answerInfoFlags(process.argv.slice(2), { usage })) process.exit(0)

try {
  const config = loadConfig({ argv: process.argv.slice(2), env: process.env })
  // A wrong chain, a missing contract or a node that never answers is an exit a supervisor sees,
  // not an indexer that polls forever or serves an empty market.
  // The check's calls count against each node's rate limit, like the indexer's after it.
  // A read-only replica reads the database its writer keeps, never the chain.
  const rpc = config.readOnly ? undefined : createNodeTransports(config)
  const { unreachable } = rpc === undefined ? { unreachable: [] } : await checkIndexerNode(config, { rpc })
  const logger = createLogger({ level: config.logLevel, base: { service: 'rest' } })
  for (const error of unreachable) logger.warn({ err: error.message }, 'fallback RPC node unreachable at start-up, starting on the others')
  const server = await startRestIndexer(config, {
    mode: process.env.NODE_ENV === 'development' ? 'development' : 'production',
    logger,
    progressTty: process.stderr.isTTY ? process.stderr : undefined,
    rpc,
  })
  console.log(`REST indexer (${config.network}) serving on ${server.url}`)
  // Only when asked: an indexer alone is still the default deployment of `npm run serve`.
  const mcp = isSettingGiven('mcpPort', { argv: process.argv.slice(2), env: process.env })
    ? await startHostedMcpServer(config, { logger: logger.child({ service: 'mcp' }), store: server.store })
    : undefined
  if (mcp !== undefined) console.log(`hosted MCP (${config.network}) serving on ${mcp.url}/mcp`)

  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    logger.info({ signal }, 'stopping')
    await mcp?.close()
    await server.stop()
    process.exit(0)
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
} catch (error) {
  // Our own errors are sentences meant for the operator; anything else gets its stack.
  console.error(error instanceof BaseError ? error.message : error)
  process.exit(1)
}
