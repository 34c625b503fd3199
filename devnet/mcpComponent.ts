import type { DevnetComponent } from './DevnetComponent.ts'
import { startHostedMcpServer } from '../mcp/hosted/startHostedMcpServer.ts'

/** The hosted MCP server (five read tools) as part of `npm start`, reading the indexer's store when one runs. */
export const mcpComponent: DevnetComponent = {
  name: 'mcp',
  async start({ config, logger, store }) {
    const { url, metricsUrl, close } = await startHostedMcpServer(config, { logger: logger.child({ service: 'mcp' }), store })
    const urls: Record<string, string> = { 'hosted MCP': `${url}/mcp` }
    if (config.metrics !== 'off') urls['MCP metrics'] = `${metricsUrl ?? url}/metrics`
    return { urls, stop: close }
  },
}
