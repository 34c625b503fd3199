import type { Server } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { Socket } from 'node:net'
import { ExpectationFailedError, MethodNotAllowedError, MissingHostError, RequestTimeoutError } from '../../errors/http.ts'
import { corsHeaders } from './addCorsHeaders.ts'
import { capConnectionsPerAddress } from './capConnectionsPerAddress.ts'
import { compileTrustedProxies } from './compileTrustedProxies.ts'
import { toErrorReply } from './toErrorReply.ts'
import { writeSocketError } from './writeSocketError.ts'

export type ServerLimits = {
  /** Time for a request's headers to arrive once it has started (half-sent headers, slowloris). */
  headersTimeoutMs: number
  /** Time for a whole request, body included, to arrive. */
  requestTimeoutMs: number
  /**
   * How long a keep-alive connection may wait for its next request: what `Keep-Alive: timeout=`
   * advertises; Node closes the socket 1 s later, so a client reusing it at the last moment does not race the close.
   */
  keepAliveTimeoutMs: number
  /**
   * A connection on which nothing is read or written for this long is closed (a socket that never
   * sends a byte). Above the 15 s between an MCP event stream's keep-alive comments.
   */
  idleTimeoutMs: number
  /** Open connections at most; the next ones are closed at once, so a flood cannot take every file descriptor. */
  maxConnections: number
  /**
   * Open connections one client address may hold (0: no cap), well below `maxConnections` so one
   * address cannot take the places of all others; trusted proxies are not capped (see
   * capConnectionsPerAddress). None unless given: the REST and hosted MCP entry points pass
   * `--max-client-connections` (64 by default; a browser opens at most 6 per origin), while the
   * bench and tests load a server from one address.
   */
  maxConnectionsPerAddress: number
}

export const defaultServerLimits: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 30_000,
  maxConnections: 512,
  maxConnectionsPerAddress: 0,
}

export type HardenServerParameters = {
  /** The methods the app serves, named in the 405 a CONNECT gets. */
  methods: readonly string[]
  limits?: Partial<ServerLimits> | undefined
  /** The `--trust-proxy` addresses and ranges (see readServingOptions): exempt from the per-address cap. */
  trustProxy?: readonly string[] | false | undefined
}

/** Settings `http.Server` reads at run time that its type does not list. */
type NodeServer = Server & { connectionsCheckingInterval: number; requireHostHeader: boolean }

/**
 * Makes a Fastify app's HTTP server survive hostile clients: the limits above, and our error
 * shape with CORS for what Node would answer itself, before any hook: a request without `Host`
 * (Node's bare 400 is turned off and the check made here), an `Expect` it cannot meet (417), a
 * CONNECT (405). Malformed requests and bad URLs are the Fastify options `clientErrorHandler:
 * answerClientError` and `frameworkErrors: handleFrameworkError`, which every server also sets.
 * Call before `listen`.
 */
export function hardenServer(app: FastifyInstance, { methods, limits = {}, trustProxy = false }: HardenServerParameters): void {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, idleTimeoutMs, maxConnections, maxConnectionsPerAddress } = {
    ...defaultServerLimits,
    ...limits,
  }
  const server = app.server as NodeServer
  server.headersTimeout = headersTimeoutMs
  server.requestTimeout = requestTimeoutMs
  // How often Node looks for requests past those timeouts (read when the server starts listening).
  server.connectionsCheckingInterval = Math.min(1_000, Math.max(10, Math.floor(headersTimeoutMs / 4)))
  server.keepAliveTimeout = keepAliveTimeoutMs
  server.setTimeout(idleTimeoutMs)
  server.maxConnections = maxConnections
  server.requireHostHeader = false
  capConnectionsPerAddress(server, { max: maxConnectionsPerAddress, exempt: compileTrustedProxies(trustProxy) })
  answerTimedOutSockets(server)

  server.on('checkExpectation', (request, response) => {
    const { status, headers, body } = toErrorReply(new ExpectationFailedError({ expect: String(request.headers.expect) }))
    const text = JSON.stringify(body)
    response.writeHead(status, {
      ...corsHeaders,
      ...headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      connection: 'close',
    })
    response.end(text)
  })
  server.on('connect', (request, socket) => {
    writeSocketError(socket, new MethodNotAllowedError({ method: 'CONNECT', path: request.url ?? '', allowed: methods }))
  })
  app.addHook('onRequest', (request, reply, done) => {
    if (request.raw.httpVersion !== '1.0' && (request.headers.host === undefined || request.headers.host === '')) {
      const { status, body } = toErrorReply(new MissingHostError())
      reply.code(status).headers(corsHeaders).send(body)
      return
    }
    done()
  })
}

/**
 * Node closes a keep-alive connection whose next request has not arrived by the keep-alive timeout
 * (and any connection idle for `idleTimeoutMs`) without a word, even when part of that request has
 * arrived, which the headers timeout would have answered 408 had the socket lived. A `timeout`
 * listener takes that close over: a socket with unanswered bytes gets our 408, any other (idle, or
 * stuck mid-answer) is destroyed as Node would.
 */
function answerTimedOutSockets(server: Server): void {
  /** How many bytes each socket had read when its last answer was sent. */
  const answeredAt = new WeakMap<Socket, number>()
  server.on('request', (request, response) => {
    response.once('finish', () => answeredAt.set(request.socket, request.socket.bytesRead))
  })
  server.on('timeout', (socket: Socket) => {
    const answering = (socket as Socket & { _httpMessage?: unknown })._httpMessage
    if (answering == null && socket.bytesRead > (answeredAt.get(socket) ?? 0)) writeSocketError(socket, new RequestTimeoutError())
    else socket.destroy()
  })
}
