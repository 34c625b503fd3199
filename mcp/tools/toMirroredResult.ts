import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

type Mirrored = { text: string; json?: string }

const mirrored = new WeakMap<CallToolResult, Mirrored>()

/**
 * The document's answer shape: the response object as JSON in `content[0].text`, and the object
 * itself as `structuredContent`. The text is remembered with the result (and dies with it), so
 * the result's own JSON can be written without serializing the object a second time.
 */
export function toMirroredResult(response: Record<string, unknown>): CallToolResult {
  const text = JSON.stringify(response)
  const result: CallToolResult = { content: [{ type: 'text', text }], structuredContent: response }
  mirrored.set(result, { text })
  return result
}

/**
 * The JSON of a `toMirroredResult` answer, byte for byte what `JSON.stringify` writes for it (and
 * for the SDK's parsed copy of it), built once per result object; undefined for any other result.
 */
export function mirroredResultJson(result: CallToolResult): string | undefined {
  const entry = mirrored.get(result)
  if (entry === undefined) return undefined
  entry.json ??= `{"content":[{"type":"text","text":${JSON.stringify(entry.text)}}],"structuredContent":${entry.text}}`
  return entry.json
}
