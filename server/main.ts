import { answerInfoFlags } from '../config/answerInfoFlags.ts'
import { describeConfigFlags } from '../config/describeConfigFlags.ts'
import { loadConfig } from '../config/loadConfig.ts'
import { BaseError } from '../errors/BaseError.ts'
import { startRestIndexer } from './http/startRestIndexer.ts'
import { checkIndexerNode } from './indexer/startIndexer.ts'
import { createLogger } from './logging/createLogger.ts'

/**
 * The REST indexer: `npm run serve -- [--network devnet|0g-mainnet] [--port 8080] [--host 127.0.0.1]`
 * (or PORT, HOST, ...; see config/loadConfig.ts). Prints the URL it serves on to stdout; logs go
 * to stderr as JSON lines (readable lines on a terminal), at --log-level / LOG_LEVEL.
 */
const usage = `Usage: npm run serve -- [options]

The REST indexer: follows the chain and serves the API on --host:--port.

  -h, --help     print this and exit
  -V, --version  print the version and exit
${describeConfigFlags()}`

if (answerInfoFlags(process.argv.slice(2), { usage })) process.exit(0)

try {
  const config = loadConfig({ argv: process.argv.slice(2), env: process.env })
  // A wrong chain, a missing contract or a node that never answers is an exit a supervisor sees,
  // not an indexer that polls forever or serves an empty market.
  const { unreachable } = await checkIndexerNode(config)
  const logger = createLogger({ level: config.logLevel, base: { service: 'rest' } })
  for (const error of unreachable) logger.warn({ err: error.message }, 'fallback RPC node unreachable at start-up, starting on the others')
  const server = await startRestIndexer(config, {
    mode: process.env.NODE_ENV === 'development' ? 'development' : 'production',
    logger,
    progressTty: process.stderr.isTTY ? process.stderr : undefined,
  })
  console.log(`REST indexer (${config.network}) serving on ${server.url}`)

  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    logger.info({ signal }, 'stopping')
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
