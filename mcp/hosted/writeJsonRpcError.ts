import type { ServerResponse } from 'node:http'

export type WriteJsonRpcErrorParameters = {
  status: number
  code: number
  message: string
}

/**
 * Answers a raw response with a JSON-RPC error that belongs to no request (`id: null`), as the
 * SDK's transport words its refusals; a response already under way can only be ended.
 */
export function writeJsonRpcError(response: ServerResponse, { status, code, message }: WriteJsonRpcErrorParameters): void {
  if (response.headersSent) {
    response.end()
    return
  }
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }))
}
