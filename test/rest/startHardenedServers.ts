import { readFile } from 'node:fs/promises'
import { zeroAddress } from 'viem'
import { inject } from 'vitest'
import { loadConfig } from '../../config/loadConfig.ts'
import { createSellerStore } from '../../devnet/seller/createSellerStore.ts'
import { serveOutputs } from '../../devnet/seller/serveOutputs.ts'
import { startHostedMcpServer } from '../../mcp/hosted/startHostedMcpServer.ts'
import { buildApp } from '../../server/http/buildApp.ts'
import type { ServerLimits } from '../../platform/http/hardenServer.ts'
import { createStore } from '../../server/store/createStore.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { openApiPath } from './startRestServer.ts'

// Every HTTP server we ship (REST, hosted MCP, the reference seller's outputs), each through the
// function its entry point calls, on a free 127.0.0.1 port with the limits a test gives.

export type HardenedServer = {
  name: string
  port: number
  /** A path the server answers without a body. */
  path: string
  close: () => Promise<void>
}

export async function startRest(limits: Partial<ServerLimits>): Promise<HardenedServer> {
  const store = createStore({ pollIntervalMs: 1_000, chainId: 31337, network: 'devnet' })
  const app = buildApp({ store, mode: 'production', openApiText: await readFile(openApiPath, 'utf8'), docsHtml: '<!doctype html>', limits })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  return { name: 'REST', port: Number(new URL(url).port), path: '/v1/stats', close: () => app.close() }
}

export async function startHostedMcp(limits: Partial<ServerLimits>): Promise<HardenedServer> {
  const { rpcUrl, deployment } = inject('devnet')
  const config = loadConfig({
    argv: ['--network', 'devnet', '--rpc-url', rpcUrl, ...deploymentArgv(deployment), '--host', '127.0.0.1', '--mcp-port', '0'],
    env: {},
  })
  const store = createStore({ pollIntervalMs: 1_000, chainId: 31337, network: 'devnet' })
  const hosted = await startHostedMcpServer(config, { store, log: () => {}, limits })
  return { name: 'hosted MCP', port: Number(new URL(hosted.url).port), path: '/healthz', close: hosted.close }
}

export async function startSeller(limits: Partial<ServerLimits>): Promise<HardenedServer> {
  const store = createSellerStore({ chainKey: '' })
  const served = await serveOutputs(store, { port: 0, sellers: [], chainId: 31337, escrow: zeroAddress, limits })
  return { name: 'seller', port: Number(new URL(served.url).port), path: '/outputs/1', close: served.close }
}
