import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../config/loadConfig.ts'
import { BaseError } from '../errors/BaseError.ts'
import { buildApp } from './http/buildApp.ts'
import { buildDocsHtml } from './http/buildDocsHtml.ts'
import { startIndexer } from './indexer/startIndexer.ts'

/**
 * The REST indexer: `npm run serve -- [--network devnet|0g-mainnet] [--port 8080] [--host 127.0.0.1]`
 * (or PORT, HOST, ...; see config/loadConfig.ts). Prints the URL it serves on to stdout; logs go
 * to stderr as JSON lines.
 */
try {
  const config = loadConfig({ argv: process.argv.slice(2), env: process.env })
  const openApiPath = fileURLToPath(new URL('../openapi.json', import.meta.url))
  const openApiText = await readFile(openApiPath, 'utf8')
  const title = (JSON.parse(openApiText) as { info: { title: string } }).info.title
  // The indexer back-fills in the background (/healthz answers 503 until it reaches the head),
  // so the API reference page renders meanwhile.
  const indexer = startIndexer(config)
  const docsHtml = await buildDocsHtml({ openApiPath, title })
  const app = buildApp({
    store: indexer.store,
    mode: process.env.NODE_ENV === 'development' ? 'development' : 'production',
    openApiText,
    docsHtml,
    logger: { level: 'info', stream: process.stderr },
  })
  const url = await app.listen({ port: config.port, host: config.host })
  console.log(`REST indexer (${config.network}) serving on ${url}`)

  const shutdown = async (): Promise<void> => {
    await app.close()
    await indexer.stop()
    process.exit(0)
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
} catch (error) {
  // Our own errors are sentences meant for the operator; anything else gets its stack.
  console.error(error instanceof BaseError ? error.message : error)
  process.exit(1)
}
