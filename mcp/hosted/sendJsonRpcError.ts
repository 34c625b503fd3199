import type { FastifyReply } from 'fastify'

export type SendJsonRpcErrorParameters = {
  status: number
  /** JSON-RPC error code: -32700 parse error, -32600 invalid request, -32000 transport refusals. */
  code: number
  message: string
  headers?: Record<string, string>
}

/**
 * Answers with a JSON-RPC error that belongs to no request (`id: null`), as the SDK's transport
 * words its own refusals: the one builder of such bodies in the hosted server.
 */
export function sendJsonRpcError(reply: FastifyReply, { status, code, message, headers = {} }: SendJsonRpcErrorParameters): FastifyReply {
  return reply
    .status(status)
    .headers(headers)
    .type('application/json')
    .send({ jsonrpc: '2.0', error: { code, message }, id: null })
}
