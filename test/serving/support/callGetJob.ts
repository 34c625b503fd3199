import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

/** `get_job` through the official MCP client over Streamable HTTP at `url` (https, or a proxy in front). */
export async function callGetJob(url: string, { jobId, clientName }: { jobId: string; clientName: string }): Promise<CallToolResult> {
  const client = new Client({ name: clientName, version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  try {
    return (await client.callTool({ name: 'get_job', arguments: { jobId } })) as CallToolResult
  } finally {
    await client.close()
  }
}
