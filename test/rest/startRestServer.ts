import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { inject } from 'vitest'
import { loadConfig } from '../../config/loadConfig.ts'
import { buildApp, type AppMode } from '../../server/http/buildApp.ts'
import { buildDocsHtml } from '../../server/http/buildDocsHtml.ts'
import { startIndexer } from '../../server/indexer/startIndexer.ts'
import type { Store } from '../../server/store/createStore.ts'

export const openApiPath = fileURLToPath(new URL('../../openapi.json', import.meta.url))

export type RestServer = {
  baseUrl: string
  stop: () => Promise<void>
}

/**
 * The REST indexer as server/main.ts runs it, on a free 127.0.0.1 port: an indexer following the
 * shared seeded devnet, and `buildApp` over its store. Resolves once /healthz says the back-fill
 * reached the head.
 */
export async function startRestServer({ mode = 'production' }: { mode?: AppMode } = {}): Promise<RestServer> {
  const { rpcUrl, deployment } = inject('devnet')
  const config = loadConfig({
    argv: [
      '--network', 'devnet',
      '--rpc-url', rpcUrl,
      '--chain-id', String(deployment.chainId),
      '--registry', deployment.registry,
      '--escrow', deployment.escrow,
      '--arbiter', deployment.arbiter,
      '--attestation-verifier', deployment.attestationVerifier,
      '--start-block', deployment.deployBlock,
      '--poll-interval', '250',
      '--port', '0',
    ],
    env: {},
  })
  const indexer = startIndexer(config)
  const server = await listenApp({ store: indexer.store, mode })
  await waitForHealthy(server.baseUrl)
  return {
    baseUrl: server.baseUrl,
    stop: async () => {
      await server.stop()
      await indexer.stop()
    },
  }
}

/** `buildApp` over a given store, listening on a free 127.0.0.1 port. */
export async function listenApp({ store, mode = 'production' }: { store: Store; mode?: AppMode }): Promise<RestServer> {
  const openApiText = await readFile(openApiPath, 'utf8')
  const docsHtml = await docsHtmlOnce()
  const app = buildApp({ store, mode, openApiText, docsHtml })
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' })
  return { baseUrl, stop: () => app.close() }
}

let docsHtml: Promise<string> | undefined
function docsHtmlOnce(): Promise<string> {
  docsHtml ??= buildDocsHtml({ openApiPath, title: 'TEE Market indexer API' })
  return docsHtml
}

async function waitForHealthy(baseUrl: string): Promise<void> {
  for (;;) {
    const response = await fetch(`${baseUrl}/healthz`)
    if (response.status === 200) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
