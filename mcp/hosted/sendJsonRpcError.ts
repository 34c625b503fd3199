import type { ServerResponse } from 'node:http'
import type { FastifyReply } from 'fastify'

/** The JSON-RPC error codes the hosted server answers with outside the SDK's transport. */
export const jsonRpcErrorCodes = {
  parseError: -32700,
  internalError: -32603,
  /** What the SDK's transport uses for its own refusals (wrong method, host, content type). */
  serverError: -32000,
} as const

export type SendJsonRpcErrorParameters = {
  status: number
  code: (typeof jsonRpcErrorCodes)[keyof typeof jsonRpcErrorCodes]
  message: string
  headers?: Record<string, string>
}

/**
 * Answers with a JSON-RPC error that belongs to no request (`id: null`), as the SDK's transport
 * words its own refusals: the one builder of such bodies in the hosted server.
 */
export function sendJsonRpcError(reply: FastifyReply, { status, code, message, headers = {} }: SendJsonRpcErrorParameters): FastifyReply {
  return reply.status(status).headers(headers).type('application/json').send(toBody(code, message))
}

/** The same answer on a raw response, for a request Fastify no longer holds (hijacked for the transport). */
export function writeJsonRpcError(response: ServerResponse, { status, code, message, headers = {} }: SendJsonRpcErrorParameters): void {
  response.writeHead(status, { ...headers, 'content-type': 'application/json' })
  response.end(JSON.stringify(toBody(code, message)))
}

function toBody(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null }
}
