export type RawToolCallReturnType = {
  status: number
  contentType: string | null
  /** Each server-sent event: its name and its data parsed as JSON. */
  events: { event: string; data: unknown }[]
}

/**
 * The document's raw call shape: a lone `tools/call` POST (no initialize, no session) with the
 * two Accept types, answered as an event stream.
 */
export async function postRawToolCall(
  mcpUrl: string,
  { name, args, id = 1 }: { name: string; args: unknown; id?: number },
): Promise<RawToolCallReturnType> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
  })
  const text = await response.text()
  const events = text
    .split(/\n\n+/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n')
      const event = lines.find((line) => line.startsWith('event:'))?.slice('event:'.length).trim() ?? 'message'
      const data = lines
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice('data:'.length).trimStart())
        .join('\n')
      return { event, data: data === '' ? null : (JSON.parse(data) as unknown) }
    })
  return { status: response.status, contentType: response.headers.get('content-type'), events }
}
