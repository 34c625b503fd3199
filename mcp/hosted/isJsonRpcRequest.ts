import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js'

/**
 * Whether a message that passed `JSONRPCMessageSchema` is a request (a method and an id). The
 * SDK's own guard re-parses the message with zod, and a failed parse builds an error with a stack.
 */
export function isJsonRpcRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message
}
