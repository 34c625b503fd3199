import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

/**
 * The document's answer shape: the response object as JSON in `content[0].text`, and the object
 * itself as `structuredContent`.
 */
export function toMirroredResult(response: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(response) }], structuredContent: response }
}
