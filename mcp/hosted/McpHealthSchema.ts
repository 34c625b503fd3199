import { z } from 'zod'
import { HealthSchema } from '../../contract/health.ts'

/** `GET /healthz` of the hosted MCP server, as the document gives it. */
export const McpHealthSchema = HealthSchema.pick({ network: true, chainId: true }).extend({
  ok: z.boolean().describe('True when the chain answers with the configured chain id.'),
  service: z.string().describe('Name of this server ("tee-market-mcp").'),
  tools: z.array(z.string()).describe('Names of the tools offered.'),
})

export type McpHealth = z.output<typeof McpHealthSchema>
