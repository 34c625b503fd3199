import type { DevnetComponent } from '../../devnet/DevnetComponent.ts'
import { startHostedMcpServer } from './startHostedMcpServer.ts'

/** The hosted MCP server (four read tools) as part of `npm start`, reading the indexer's store when one runs. */
export const mcpComponent: DevnetComponent = {
  name: 'mcp',
  async start({ config, log, store }) {
    const { url, close } = await startHostedMcpServer(config, { log, store })
    return { urls: { 'hosted MCP': `${url}/mcp` }, stop: close }
  },
}
