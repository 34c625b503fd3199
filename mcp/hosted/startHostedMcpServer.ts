import type { Config } from '../../config/ConfigSchema.ts'
import type { ServerLimits } from '../../platform/http/hardenServer.ts'
import type { Logger } from '../../platform/logging/createLogger.ts'
import { packageVersion } from '../../platform/logging/packageVersion.ts'
import { createMetricsRegistry } from '../../platform/metrics/createMetricsRegistry.ts'
import { serveMetrics } from '../../platform/metrics/serveMetrics.ts'
import type { StoreReader } from '../../server/store/StoreReader.ts'
import { listenServing } from '../../platform/serving/listenServing.ts'
import { readServingOptions } from '../../platform/serving/readServingOptions.ts'
import { mcpServerName } from '../server/createMarketMcpServer.ts'
import { createToolContext } from '../server/createToolContext.ts'
import { createToolDispatcher } from '../server/createToolDispatcher.ts'
import { hostedTools } from '../tools/hostedTools.ts'
import { buildMcpApp } from './buildMcpApp.ts'
import { cacheChainId } from './cacheChainId.ts'
import { createCallerScope } from './createCallerScope.ts'
import { createHostGuard } from './createHostGuard.ts'
import { getMcpHealth } from './getMcpHealth.ts'
import { observeToolCalls } from './observeToolCalls.ts'

export type StartHostedMcpServerParameters = {
  /** The process's logger (see createLogger): start and stop lines, failures. */
  logger?: Logger | undefined
  log?: (message: string) => void
  /** The indexer's store, when this server runs in the indexer's process (read in place of the REST API). */
  store?: StoreReader | undefined
  /** How often a comment line keeps a slow answer's event stream alive (the SDK's 15 s unless given). */
  keepAliveMs?: number | undefined
  /** Timeouts and connection caps (see hardenServer); `--max-client-connections` and the defaults unless given. */
  limits?: Partial<ServerLimits> | undefined
}

export type StartHostedMcpServerReturnType = {
  /** Base URL; the MCP endpoint is `${url}/mcp`. */
  url: string
  /** Where `/metrics` answers when it has a port of its own (`--metrics <port>`). */
  metricsUrl: string | undefined
  close: () => Promise<void>
}

/** Starts the hosted MCP server on `config.host`:`config.mcpPort` (port 0 picks a free one). */
export async function startHostedMcpServer(
  config: Config,
  { logger, log = logger === undefined ? (message) => process.stderr.write(`${message}\n`) : (message) => logger.warn(message), store, keepAliveMs, limits }: StartHostedMcpServerParameters = {},
): Promise<StartHostedMcpServerReturnType> {
  const serving = await readServingOptions(config)
  const callerScope = createCallerScope()
  const context = createToolContext(config, { log, server: 'hosted', store, forwardedFor: callerScope.current })
  const tools = hostedTools.map((tool) => tool.name)
  const registry = config.metrics === 'off' ? undefined : createMetricsRegistry({ service: 'mcp' })
  const dispatcher = createToolDispatcher(context, { tools: hostedTools })
  const readChainId = cacheChainId(context.client)
  const app = buildMcpApp({
    dispatcher: registry === undefined ? dispatcher : observeToolCalls(dispatcher, { registry }),
    keepAliveMs,
    limits: { maxConnectionsPerAddress: config.maxClientConnections, ...limits },
    rateLimit: { max: config.rateLimit },
    hostGuard: createHostGuard({ bindHost: config.host, allowedHosts: config.allowedHosts, allowedOrigins: config.allowedOrigins }),
    health: () =>
      getMcpHealth(readChainId, { service: mcpServerName, network: config.network, chainId: config.chainId, tools }),
    log,
    metrics: registry === undefined ? undefined : { registry, route: config.metrics === 'on' },
    serving,
    callerScope,
  })
  const { unwatch } = await listenServing(app, { host: config.host, port: config.mcpPort, settings: config, logger })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.mcpPort
  const url = `${serving.https === null ? 'http' : 'https'}://${config.host}:${port}`
  const metricsServer = registry === undefined ? undefined : await serveMetrics({ registry, setting: config.metrics, host: config.host })
  logger?.info(
    {
      version: packageVersion,
      network: config.network,
      chainId: config.chainId,
      registry: config.registry,
      escrow: config.escrow,
      url: `${url}/mcp`,
      port,
      tools,
      reading: context.reading,
      metrics: config.metrics === 'off' ? 'off' : `${metricsServer?.url ?? url}/metrics`,
      tls: serving.certificate ?? 'off',
      trustProxy: serving.trustProxy,
    },
    `hosted mcp started on ${url}/mcp`,
  )
  return {
    url,
    metricsUrl: metricsServer?.url,
    close: async () => {
      unwatch()
      await app.close()
      await metricsServer?.close()
      logger?.info('hosted mcp stopped')
    },
  }
}
