import type { ServerResponse } from 'node:http'
import { safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js'
import { parseWithCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js'
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js'
import type { ToolDispatcher } from '../server/createToolDispatcher.ts'
import { mirroredResultJson } from '../tools/toMirroredResult.ts'
import { isJsonRpcRequest } from './isJsonRpcRequest.ts'
import { keepSseAlive } from './keepSseAlive.ts'
import { sseHeaders, toSseEvent } from './toSseEvent.ts'

export type AnswerToolCallParameters = {
  request: JSONRPCRequest
  response: ServerResponse
  /** How often a comment line keeps a slow answer's stream alive through proxies (the SDK's 15 s). */
  keepAliveMs?: number | undefined
}

/**
 * Whether a POST is one plain `tools/call` (no task requested): the hosted server's common call,
 * which `answerToolCall` answers without a protocol server. Anything else goes to the SDK's.
 */
export function isPlainToolCall(messages: readonly JSONRPCMessage[]): messages is [JSONRPCRequest] {
  const [message] = messages
  return (
    messages.length === 1 &&
    message !== undefined &&
    isJsonRpcRequest(message) &&
    message.method === 'tools/call' &&
    (message.params === undefined || !('task' in message.params))
  )
}

/**
 * Answers one `tools/call` as the SDK's `Server` would (the request checked against
 * `CallToolRequestSchema`, the result against `CallToolResultSchema` and sent as parsed, errors
 * as JSON-RPC errors with the same codes and messages) in one `message` event. Connecting a
 * protocol server costs more than the call itself: its message routing re-parses every message
 * with zod guards, and each failed guard builds an error with a stack trace.
 */
export async function answerToolCall(
  dispatcher: ToolDispatcher,
  { request, response, keepAliveMs }: AnswerToolCallParameters,
): Promise<void> {
  const stopKeepAlive = keepSseAlive(response, { intervalMs: keepAliveMs })
  const event = toSseEvent(await answerJson(dispatcher, request).finally(stopKeepAlive))
  if (response.destroyed) return
  if (!response.headersSent) response.writeHead(200, { ...sseHeaders, 'content-length': Buffer.byteLength(event) })
  response.end(event)
}

async function answerJson(dispatcher: ToolDispatcher, request: JSONRPCRequest): Promise<string> {
  try {
    const { params } = parseWithCompat(CallToolRequestSchema, request) as { params: Parameters<ToolDispatcher['call']>[0] }
    const result = await dispatcher.call(params)
    // A mirrored answer (one text block, an object as structuredContent) always passes
    // CallToolResultSchema, and the SDK's parsed copy of it serializes to the same JSON.
    const mirrored = mirroredResultJson(result)
    if (mirrored !== undefined) return `{"result":${mirrored},"jsonrpc":"2.0","id":${JSON.stringify(request.id)}}`
    const checked = safeParse(CallToolResultSchema, result)
    if (!checked.success) {
      const problem = checked.error instanceof Error ? checked.error.message : String(checked.error)
      throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${problem}`)
    }
    return JSON.stringify({ result: checked.data, jsonrpc: '2.0', id: request.id })
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: string; data?: unknown }
    return JSON.stringify({
      jsonrpc: '2.0',
      id: request.id,
      error: {
        code: typeof code === 'number' && Number.isSafeInteger(code) ? code : ErrorCode.InternalError,
        message: message ?? 'Internal error',
        ...(data !== undefined && { data }),
      },
    })
  }
}
