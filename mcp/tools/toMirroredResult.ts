import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

const texts = new WeakMap<CallToolResult, string>()

/**
 * The document's answer shape: the response object as JSON in `content[0].text`, and the object
 * itself as `structuredContent`. The text is remembered with the result (and dies with it), so
 * whoever writes the answer can reuse it as the JSON of `structuredContent` instead of serializing
 * the object a second time.
 */
export function toMirroredResult(response: Record<string, unknown>): CallToolResult {
  const text = JSON.stringify(response)
  const result: CallToolResult = { content: [{ type: 'text', text }], structuredContent: response }
  texts.set(result, text)
  return result
}

/** The JSON of a `toMirroredResult` answer's structuredContent (its `content[0].text`); undefined for any other result. */
export function mirroredText(result: CallToolResult): string | undefined {
  return texts.get(result)
}
