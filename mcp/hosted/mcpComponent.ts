import type { DevnetComponent } from '../../devnet/DevnetComponent.ts'
import { startHostedMcpServer } from './startHostedMcpServer.ts'

/** The hosted MCP server (four read tools) as part of `npm start`. */
export const mcpComponent: DevnetComponent = {
  name: 'mcp',
  async start({ config, log }) {
    const { url, close } = await startHostedMcpServer(config, { log })
    return { urls: { 'hosted MCP': `${url}/mcp` }, stop: close }
  },
}
