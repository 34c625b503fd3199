import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import packageJson from '../../package.json' with { type: 'json' }
import type { MarketTool } from '../tools/defineTool.ts'

export type CreateMarketMcpServerParameters<context> = {
  tools: readonly MarketTool<context>[]
}

export type CreateMarketMcpServerReturnType = McpServer

export const mcpServerName = 'tee-market-mcp'

const instructions =
  'Tools for a marketplace of TEE-attested AI inference on an EVM chain. list_services shows what can be bought, ' +
  'get_service and get_job read one record, verify_attestation checks a job\'s attestation signature against the ' +
  'registry. Amounts are wei as decimal strings; ids are stringified positive integers.'

/** An MCP server offering the given tools over the given context. */
export function createMarketMcpServer<context extends { log: (message: string) => void }>(
  context: context,
  { tools }: CreateMarketMcpServerParameters<context>,
): CreateMarketMcpServerReturnType {
  const server = new McpServer({ name: mcpServerName, version: packageJson.version }, { instructions })
  for (const tool of tools) tool.register(server, context)
  return server
}
