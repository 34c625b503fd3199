import type { IncomingHttpHeaders } from 'node:http'
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js'
import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js'
import { isJsonRpcRequest } from './isJsonRpcRequest.ts'
import type { WriteJsonRpcErrorParameters } from './writeJsonRpcError.ts'

export type ReadPostMessagesReturnType =
  | { messages: JSONRPCMessage[]; refusal?: undefined }
  | { messages?: undefined; refusal: WriteJsonRpcErrorParameters }

/**
 * The JSON-RPC messages of one POST (a message or a batch, already parsed from JSON), or the
 * refusal the SDK's stateless Streamable HTTP transport answers instead: 406 when the client does
 * not accept both answer forms, 400 for an oversized batch, a message that is not JSON-RPC, an
 * `initialize` among other messages, or an unsupported `Mcp-Protocol-Version`.
 */
export function readPostMessages(headers: IncomingHttpHeaders, body: unknown): ReadPostMessagesReturnType {
  const refuse = (status: number, code: number, message: string): ReadPostMessagesReturnType => ({
    refusal: { status, code, message },
  })
  const accept = headers.accept
  if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return refuse(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream')
  }
  if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
    return refuse(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`)
  }
  let messages: JSONRPCMessage[]
  try {
    messages = (Array.isArray(body) ? body : [body]).map((message) => JSONRPCMessageSchema.parse(message))
  } catch {
    return refuse(400, -32700, 'Parse error: Invalid JSON-RPC message')
  }
  const initializing = messages.some(
    (message) => isJsonRpcRequest(message) && message.method === 'initialize' && isInitializeRequest(message),
  )
  if (initializing && messages.length > 1) {
    return refuse(400, -32600, 'Invalid Request: Only one initialization request is allowed')
  }
  const version = headers['mcp-protocol-version']
  if (!initializing && typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return refuse(
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    )
  }
  return { messages }
}
