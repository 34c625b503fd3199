import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { escapeControlCharacters } from '../../contract/escapeControlCharacters.ts'

/**
 * The document's answer shape: the response object as JSON in `content[0].text`, and the object
 * itself as `structuredContent`. Sellers write some of its strings (modelId, providerIdentity,
 * outputs): JSON.stringify leaves their bidi overrides, zero-width and separator characters as
 * they are, so the text writes those escaped too (`\u202e`), the same JSON to a parser but
 * nothing an agent reading it as text can be fooled by. `structuredContent` stays the raw data.
 */
export function toMirroredResult(response: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: escapeControlCharacters(JSON.stringify(response)) }], structuredContent: response }
}
