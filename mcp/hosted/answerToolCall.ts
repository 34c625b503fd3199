import type { ServerResponse } from 'node:http'
import { safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js'
import { parseWithCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js'
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'
import type { ToolDispatcher } from '../server/createToolDispatcher.ts'
import { mirroredText } from '../tools/toMirroredResult.ts'
import { isJsonRpcRequest } from './isJsonRpcRequest.ts'
import { sseHeaders, toSseEvent } from './toSseEvent.ts'

export type AnswerToolCallParameters = {
  request: JSONRPCRequest
  response: ServerResponse
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
  { request, response }: AnswerToolCallParameters,
): Promise<void> {
  const event = toSseEvent(await answerJson(dispatcher, request))
  if (response.destroyed) return
  response.writeHead(200, { ...sseHeaders, 'content-length': Buffer.byteLength(event) })
  response.end(event)
}

async function answerJson(dispatcher: ToolDispatcher, request: JSONRPCRequest): Promise<string> {
  try {
    const { params } = parseWithCompat(CallToolRequestSchema, request) as { params: Parameters<ToolDispatcher['call']>[0] }
    const result = await dispatcher.call(params)
    const checked = safeParse(CallToolResultSchema, result)
    if (!checked.success) {
      const problem = checked.error instanceof Error ? checked.error.message : String(checked.error)
      throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${problem}`)
    }
    return resultJson(checked.data, { text: mirroredText(result), id: request.id })
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

/**
 * `{ result, jsonrpc, id }` serialized. A mirrored answer's structuredContent is written as its
 * text, which is that object's JSON (parsing the result copied the record key by key, values
 * untouched): serializing it again was a third of list_services' time.
 */
function resultJson(result: CallToolResult, { text, id }: { text: string | undefined; id: RequestId }): string {
  const [block] = result.content
  const mirrored =
    text !== undefined &&
    hasExactly(result, ['content', 'structuredContent']) &&
    result.content.length === 1 &&
    block?.type === 'text' &&
    hasExactly(block, ['type', 'text']) &&
    block.text === text
  if (!mirrored) return JSON.stringify({ result, jsonrpc: '2.0', id })
  return `{"result":{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`
}

function hasExactly(value: object, keys: readonly string[]): boolean {
  const own = Object.keys(value)
  return own.length === keys.length && own.every((key, index) => key === keys[index])
}
