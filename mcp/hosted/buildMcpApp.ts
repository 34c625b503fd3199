import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import Fastify, { type FastifyError, type FastifyInstance, type onRequestHookHandler } from 'fastify'
import type { McpHealth } from '../../contract/mcp.ts'
import { RateLimitedError } from '../../errors/http.ts'
import { addRateLimit, type RateLimitSettings } from '../../platform/http/addRateLimit.ts'
import { answerClientError } from '../../platform/http/answerClientError.ts'
import { handleFrameworkError } from '../../platform/http/handleFrameworkError.ts'
import { toErrorReply } from '../../platform/http/toErrorReply.ts'
import { hardenServer, type ServerLimits } from '../../platform/http/hardenServer.ts'
import type { OperatorMetrics } from '../../platform/metrics/OperatorMetrics.ts'
import { toFastifyServing, type ServingOptions } from '../../platform/serving/toFastifyServing.ts'
import { addHttpMetrics } from '../../platform/metrics/addHttpMetrics.ts'
import { addMetricsRoute, metricsPath } from '../../platform/metrics/serveMetrics.ts'
import type { CallerScope } from './createCallerScope.ts'
import { createMarketMcpServer } from '../server/createMarketMcpServer.ts'
import type { ToolDispatcher } from '../server/createToolDispatcher.ts'
import { jsonRpcErrorCodes, sendJsonRpcError, writeJsonRpcError } from './sendJsonRpcError.ts'

export type BuildMcpAppParameters = {
  /** The tools, prepared once; each request gets its own protocol server over them (stateless). */
  dispatcher: ToolDispatcher
  health: () => Promise<McpHealth>
  /** Checks `Host` and `Origin` before `POST /mcp` (see createHostGuard); undefined checks nothing. */
  hostGuard?: onRequestHookHandler | undefined
  /** Largest accepted JSON-RPC body; a bigger one gets 413. */
  bodyLimit?: number
  /** How often a comment line keeps a slow answer's event stream alive (the SDK's 15 s unless given). */
  keepAliveMs?: number | undefined
  /** Where unexpected failures are reported (never to the client). */
  log?: (message: string) => void
  /** Timeouts and connection caps (see hardenServer); the defaults unless given. */
  limits?: Partial<ServerLimits> | undefined
  /** Requests per client (see addRateLimit); no limit unless given: the entry point passes `--rate-limit`. */
  rateLimit?: RateLimitSettings | undefined
  /** Request metrics and, when `route`, `GET /metrics`; none unless given. */
  metrics?: OperatorMetrics | undefined
  /** HTTPS and the trusted proxies (see readServingOptions); plain HTTP, trusting no proxy, unless given. */
  serving?: ServingOptions | undefined
  /** Where each request's caller (`request.ip`) is kept while it is answered; nowhere unless given. */
  callerScope?: CallerScope | undefined
}

export type BuildMcpAppReturnType = FastifyInstance

const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers':
    'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'access-control-max-age': '86400',
} as const

/** The server's health record; probed by load balancers, so outside the request limit. */
const healthPath = '/healthz'

/** What a browser client may read of a 429 to pace itself. */
const rateLimitHeaderNames = 'retry-after, ratelimit, ratelimit-policy'

/**
 * The hosted MCP server: `POST /mcp` goes to the SDK's Streamable HTTP transport in stateless mode
 * (no session id, no initialize needed), a transport and a protocol server per request over the
 * tools prepared once; `GET /healthz` describes it. Only the entry point calls `listen`.
 */
export function buildMcpApp({
  dispatcher,
  health,
  hostGuard,
  bodyLimit = 1_048_576,
  keepAliveMs,
  log = (message) => process.stderr.write(`${message}\n`),
  limits,
  rateLimit,
  metrics,
  serving,
  callerScope,
}: BuildMcpAppParameters): BuildMcpAppReturnType {
  const app = Fastify({ ...toFastifyServing(serving), bodyLimit, logger: false, frameworkErrors: handleFrameworkError, clientErrorHandler: answerClientError })
  hardenServer(app, { methods: ['GET', 'HEAD', 'POST', 'OPTIONS'], limits, trustProxy: serving?.trustProxy })
  if (rateLimit !== undefined) addRateLimit(app, { ...rateLimit, exemptPaths: [healthPath, metricsPath] })

  // JSON is parsed by Fastify (with its body limit); any other type reaches the transport unread,
  // which answers 415 as the SDK does.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, app.getDefaultJsonParser('error', 'error'))
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined))

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*')
  })
  if (metrics !== undefined) addHttpMetrics(app, { registry: metrics.registry })
  if (metrics?.route === true) addMetricsRoute(app, { registry: metrics.registry })

  app.get(healthPath, async (_request, reply) => {
    const record = await health()
    return reply.status(record.ok ? 200 : 503).send(record)
  })

  app.options('/mcp', async (_request, reply) => reply.status(204).headers(corsHeaders).send())
  app.options(healthPath, async (_request, reply) => reply.status(204).headers(corsHeaders).send())

  // Answered here, before the transport: in stateless mode it would hold a GET open as an event
  // stream that nothing ever writes to.
  for (const method of ['GET', 'DELETE', 'PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/mcp',
      handler: async (_request, reply) =>
        sendJsonRpcError(reply, {
          status: 405,
          code: jsonRpcErrorCodes.serverError,
          message: `Method ${method} is not allowed on /mcp: this server is stateless, send each JSON-RPC message as a POST.`,
          headers: { allow: 'POST, OPTIONS' },
        }),
    })
  }

  app.post('/mcp', { ...(hostGuard === undefined ? {} : { onRequest: hostGuard }) }, async (request, reply) => {
    reply.hijack()
    const response = reply.raw
    response.setHeader('access-control-allow-origin', '*')
    const server = createMarketMcpServer(dispatcher)
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, keepAliveMs })
    // A client that goes away before its answers: closing the server aborts the calls' signals.
    response.once('close', () => {
      void transport.close()
      void server.close()
    })
    try {
      await server.connect(transport)
      const answer = () => transport.handleRequest(request.raw, response, request.body)
      await (callerScope === undefined ? answer() : callerScope.run(request.ip, answer))
    } catch (error) {
      log(`mcp request failed: ${error instanceof Error ? error.message : String(error)}`)
      if (!response.headersSent) {
        writeJsonRpcError(response, { status: 500, code: jsonRpcErrorCodes.internalError, message: 'Internal server error.' })
      } else response.end()
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
    if (error instanceof RateLimitedError) {
      return sendJsonRpcError(reply, {
        status: 429,
        code: jsonRpcErrorCodes.serverError,
        message: error.message,
        headers: { ...toErrorReply(error).headers, 'access-control-allow-origin': '*', 'access-control-expose-headers': rateLimitHeaderNames },
      })
    }
    const status = error.statusCode ?? 500
    if (status >= 500) log(`request ${request.method} ${request.url} failed: ${error.message}`)
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendJsonRpcError(reply, {
        status: 413,
        code: jsonRpcErrorCodes.serverError,
        message: `Request body is larger than the ${bodyLimit} bytes this server accepts.`,
      })
    }
    if (status === 400) {
      return sendJsonRpcError(reply, { status: 400, code: jsonRpcErrorCodes.parseError, message: 'Parse error: Invalid JSON' })
    }
    return sendJsonRpcError(reply, {
      status: status >= 400 && status < 500 ? status : 500,
      code: jsonRpcErrorCodes.internalError,
      message: status >= 500 ? 'Internal server error.' : error.message,
    })
  })

  return app
}
