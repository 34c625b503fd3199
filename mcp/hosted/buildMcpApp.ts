import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify'
import type { McpHealth } from '../../contract/mcp.ts'
import { createMarketMcpServer } from '../server/createMarketMcpServer.ts'
import type { ToolDispatcher } from '../server/createToolDispatcher.ts'
import { answerToolCall, isPlainToolCall } from './answerToolCall.ts'
import { createPostTransport } from './createPostTransport.ts'
import { readPostMessages } from './readPostMessages.ts'
import { writeJsonRpcError } from './writeJsonRpcError.ts'

export type BuildMcpAppParameters = {
  /** The tools, prepared once; each request gets its own protocol server over them (stateless). */
  dispatcher: ToolDispatcher
  health: () => Promise<McpHealth>
  /** Largest accepted JSON-RPC body; a bigger one gets 413. */
  bodyLimit?: number
  /** How often a comment line keeps a slow answer's event stream alive (the SDK's 15 s unless given). */
  keepAliveMs?: number | undefined
  /** Where unexpected failures are reported (never to the client). */
  log?: (message: string) => void
}

export type BuildMcpAppReturnType = FastifyInstance

const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers':
    'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'access-control-max-age': '86400',
} as const

/** JSON-RPC error codes used outside a tool call (the SDK answers the rest itself). */
const jsonRpcCodes = { parseError: -32700, invalidRequest: -32600, serverError: -32000, internalError: -32603 }

/**
 * The hosted MCP server: `POST /mcp` speaks Streamable HTTP statelessly (no session id, no
 * initialize needed), `GET /healthz` describes it. Only the entry point calls `listen`.
 */
export function buildMcpApp({
  dispatcher,
  health,
  bodyLimit = 1_048_576,
  keepAliveMs,
  log = (message) => process.stderr.write(`${message}\n`),
}: BuildMcpAppParameters): BuildMcpAppReturnType {
  const app = Fastify({ bodyLimit, logger: false })

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*')
  })

  app.get('/healthz', async (_request, reply) => {
    const record = await health()
    return reply.status(record.ok ? 200 : 503).send(record)
  })

  app.options('/mcp', async (_request, reply) => reply.status(204).headers(corsHeaders).send())
  app.options('/healthz', async (_request, reply) => reply.status(204).headers(corsHeaders).send())

  for (const method of ['GET', 'DELETE', 'PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/mcp',
      handler: async (_request, reply) =>
        sendJsonRpcError(reply, 405, {
          code: jsonRpcCodes.serverError,
          message: `Method ${method} is not allowed on /mcp: this server is stateless, send each JSON-RPC message as a POST.`,
          headers: { allow: 'POST, OPTIONS' },
        }),
    })
  }

  app.post('/mcp', async (request, reply) => {
    reply.hijack()
    const response = reply.raw
    response.setHeader('access-control-allow-origin', '*')
    try {
      const { messages, refusal } = readPostMessages(request.headers, request.body)
      if (refusal !== undefined) return writeJsonRpcError(response, refusal)
      if (!Array.isArray(request.body) && isPlainToolCall(messages)) {
        return await answerToolCall(dispatcher, { request: messages[0], response, keepAliveMs })
      }
      // Nothing survives the request: a protocol server of its own answers initialize, tools/list, batches (even of one)...
      const transport = createPostTransport(response, { keepAliveMs })
      await createMarketMcpServer(dispatcher).connect(transport)
      transport.receive(messages, { requestInfo: { headers: request.headers } })
    } catch (error) {
      log(`mcp request failed: ${error instanceof Error ? error.message : String(error)}`)
      writeJsonRpcError(response, { status: 500, code: jsonRpcCodes.internalError, message: 'Internal server error.' })
    }
  })

  app.setNotFoundHandler(async (request, reply) =>
    reply.status(404).send({
      error: {
        code: 'not_found',
        message: `Nothing at ${request.method} "${request.url.split('?')[0]}": the MCP endpoint is POST /mcp, health is GET /healthz.`,
      },
    }),
  )

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500
    if (status >= 500) log(`request ${request.method} ${request.url} failed: ${error.message}`)
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendJsonRpcError(reply, 413, {
        code: jsonRpcCodes.invalidRequest,
        message: `Request body is larger than the ${bodyLimit} bytes this server accepts.`,
      })
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendJsonRpcError(reply, 415, {
        code: jsonRpcCodes.invalidRequest,
        message: 'Unsupported Content-Type: send the JSON-RPC message as application/json.',
      })
    }
    if (status === 400) {
      return sendJsonRpcError(reply, 400, {
        code: jsonRpcCodes.parseError,
        message: 'Parse error: the request body is not valid JSON.',
      })
    }
    return sendJsonRpcError(reply, status >= 400 && status < 500 ? status : 500, {
      code: jsonRpcCodes.internalError,
      message: status >= 500 ? 'Internal server error.' : error.message,
    })
  })

  return app
}

type JsonRpcErrorParameters = { code: number; message: string; headers?: Record<string, string> }

function sendJsonRpcError(
  reply: FastifyReply,
  status: number,
  { code, message, headers = {} }: JsonRpcErrorParameters,
): FastifyReply {
  return reply
    .status(status)
    .headers(headers)
    .type('application/json')
    .send({ jsonrpc: '2.0', error: { code, message }, id: null })
}
