import type { ServerResponse } from 'node:http'
import { DEFAULT_SSE_KEEP_ALIVE_MS } from '@modelcontextprotocol/sdk/server/sseKeepAlive.js'
import { sseHeaders } from './toSseEvent.ts'

export type KeepSseAliveParameters = {
  /** The SDK's interval (15 s) unless given. */
  intervalMs?: number
}

/** Stops the comments; the stream stays open for the answer. */
export type KeepSseAliveReturnType = () => void

/**
 * While an answer is slow, opens the event stream (status and headers) and writes a comment line
 * every interval, as the SDK's transport does, so proxies do not close an idle connection. An
 * answer ready before the first interval goes out whole, with its length.
 */
export function keepSseAlive(
  response: ServerResponse,
  { intervalMs = DEFAULT_SSE_KEEP_ALIVE_MS }: KeepSseAliveParameters = {},
): KeepSseAliveReturnType {
  const timer = setInterval(() => {
    if (!response.headersSent) response.writeHead(200, sseHeaders)
    response.write(': keepalive\n\n')
  }, intervalMs).unref()
  return () => clearInterval(timer)
}
