import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { inject } from 'vitest'
import { loadConfig } from '../../config/loadConfig.ts'
import type { Deployment } from '../../config/deployment.ts'
import { buildApp, type AppMode } from '../../server/http/buildApp.ts'
import { startRestIndexer } from '../../server/startRestIndexer.ts'
import type { Store } from '../../server/store/createStore.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'

export const openApiPath = fileURLToPath(new URL('../../openapi.json', import.meta.url))

export type RestServer = {
  baseUrl: string
  stop: () => Promise<void>
}

/**
 * The REST indexer as server/main.ts runs it (startRestIndexer), on a free 127.0.0.1 port,
 * following the shared seeded devnet (or the given one). Resolves once /healthz says the back-fill reached the head.
 */
export async function startRestServer({
  mode = 'production',
  devnet = inject('devnet'),
  explorerUrl,
}: {
  mode?: AppMode
  /** A block explorer to configure (`--explorer-url`); the devnet has none. */
  explorerUrl?: string
  /** A devnet of the test's own (startTestDevnet); the shared seeded one by default. */
  devnet?: { rpcUrl: string; deployment: Omit<Deployment, 'agentToken'> }
} = {}): Promise<RestServer> {
  const { rpcUrl, deployment } = devnet
  const config = loadConfig({
    argv: [
      '--network', 'devnet',
      '--rpc-url', rpcUrl,
      ...deploymentArgv(deployment),
      '--poll-interval', '250',
      '--port', '0',
      '--host', '127.0.0.1',
      ...(explorerUrl === undefined ? [] : ['--explorer-url', explorerUrl]),
    ],
    env: {},
  })
  const { url, stop } = await startRestIndexer(config, { mode, logger: false })
  await waitForHealthy(url)
  return { baseUrl: url, stop }
}

/**
 * `buildApp` over a given store (no indexer), listening on a free 127.0.0.1 port. The API
 * reference page is a stand-in: it is tested through startRestServer.
 */
export async function listenApp({ store, mode = 'production' }: { store: Store; mode?: AppMode }): Promise<RestServer> {
  const openApiText = await readFile(openApiPath, 'utf8')
  const app = buildApp({ store, mode, openApiText, docsHtml: '<!doctype html><title>API reference</title>' })
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' })
  return { baseUrl, stop: () => app.close() }
}

async function waitForHealthy(baseUrl: string): Promise<void> {
  for (;;) {
    const response = await fetch(`${baseUrl}/healthz`)
    if (response.status === 200) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
