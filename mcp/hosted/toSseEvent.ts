/** Headers of an answer streamed as server-sent events, as the SDK's Streamable HTTP transport sends them. */
export const sseHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const

/** One JSON-RPC message, already serialized, as a server-sent `message` event. */
export function toSseEvent(messageJson: string): string {
  return `event: message\ndata: ${messageJson}\n\n`
}
