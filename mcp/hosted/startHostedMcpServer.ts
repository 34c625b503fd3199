import type { Config } from '../../config/ConfigSchema.ts'
import type { ServerLimits } from '../../server/http/hardenServer.ts'
import type { Store } from '../../server/store/createStore.ts'
import { mcpServerName } from '../server/createMarketMcpServer.ts'
import { createToolContext } from '../server/createToolContext.ts'
import { createToolDispatcher } from '../server/createToolDispatcher.ts'
import { hostedTools } from '../tools/hostedTools.ts'
import { buildMcpApp } from './buildMcpApp.ts'
import { createHostGuard } from './createHostGuard.ts'
import { getMcpHealth } from './getMcpHealth.ts'

export type StartHostedMcpServerParameters = {
  log?: (message: string) => void
  /** The indexer's store, when this server runs in the indexer's process (read in place of the REST API). */
  store?: Store | undefined
  /** How often a comment line keeps a slow answer's event stream alive (the SDK's 15 s unless given). */
  keepAliveMs?: number | undefined
  /** Timeouts and connection cap (see hardenServer); the defaults unless given. */
  limits?: Partial<ServerLimits> | undefined
}

export type StartHostedMcpServerReturnType = {
  /** Base URL; the MCP endpoint is `${url}/mcp`. */
  url: string
  close: () => Promise<void>
}

/** Starts the hosted MCP server on `config.host`:`config.mcpPort` (port 0 picks a free one). */
export async function startHostedMcpServer(
  config: Config,
  { log = (message) => process.stderr.write(`${message}\n`), store, keepAliveMs, limits }: StartHostedMcpServerParameters = {},
): Promise<StartHostedMcpServerReturnType> {
  const context = createToolContext(config, { log, store })
  const tools = hostedTools.map((tool) => tool.name)
  const app = buildMcpApp({
    dispatcher: createToolDispatcher(context, { tools: hostedTools }),
    keepAliveMs,
    limits,
    hostGuard: createHostGuard({ bindHost: config.host, allowedHosts: config.allowedHosts, allowedOrigins: config.allowedOrigins }),
    health: () =>
      getMcpHealth(context.client, { service: mcpServerName, network: config.network, chainId: config.chainId, tools }),
    log,
  })
  await app.listen({ host: config.host, port: config.mcpPort })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.mcpPort
  return { url: `http://${config.host}:${port}`, close: () => app.close() }
}
