import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { FastifyServerOptions } from 'fastify'
import type { Config } from '../../config/ConfigSchema.ts'
import { startIndexer } from '../indexer/startIndexer.ts'
import type { Store } from '../store/createStore.ts'
import { buildApp, type AppMode } from './buildApp.ts'
import { buildDocsHtml } from './buildDocsHtml.ts'
import { toExplorerSite } from '../explorer/ExplorerSite.ts'
import { readExplorerAssets } from '../explorer/readExplorerAssets.ts'

export type StartRestIndexerParameters = {
  mode: AppMode
  logger: FastifyServerOptions['logger']
}

export type StartRestIndexerReturnType = {
  /** Where the API answers, e.g. `http://127.0.0.1:8080`. */
  url: string
  /** The indexer's store, for other servers in this process (the hosted MCP server reads it). */
  store: Store
  stop: () => Promise<void>
}

const openApiPath = fileURLToPath(new URL('../../openapi.json', import.meta.url))

/**
 * The indexer and its REST API: starts following the chain, and listens at once on the configured
 * host and port (/healthz answers 503 until the back-fill reaches the head).
 */
export async function startRestIndexer(config: Config, { mode, logger }: StartRestIndexerParameters): Promise<StartRestIndexerReturnType> {
  const openApiText = await readFile(openApiPath, 'utf8')
  const { title } = (JSON.parse(openApiText) as { info: { title: string } }).info
  const indexer = startIndexer(config)
  try {
    // Rendered while the indexer back-fills.
    const [docsHtml, assets] = await Promise.all([buildDocsHtml({ openApiPath, title }), readExplorerAssets()])
    const explorer = { assets, site: toExplorerSite(config) }
    const app = buildApp({ store: indexer.store, mode, openApiText, docsHtml, logger, explorer })
    const url = await app.listen({ port: config.port, host: config.host })
    return {
      url,
      store: indexer.store,
      stop: async () => {
        await app.close()
        await indexer.stop()
      },
    }
  } catch (error) {
    await indexer.stop()
    throw error
  }
}
