import { Agent, createServer, request as httpRequest, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createCallRateWindow } from '../test/support/faultProxy/createCallRateWindow.ts'

export type RpcCounts = {
  /** HTTP requests (a JSON-RPC batch is one). */
  httpRequests: number
  /** JSON-RPC calls (each call of a batch counts). */
  rpcCalls: number
  /** Calls per JSON-RPC method. */
  methods: Record<string, number>
  /** HTTP requests refused for the rate (`rateLimit`). */
  rateLimited: number
  /** Most calls in one HTTP request (a batch's members). */
  largestBatch: number
  /**
   * HTTP requests that arrived while none was in flight: the round trips the client waited out one
   * after another, each of which a node's latency lengthens (`latencyMs`).
   */
  roundTrips: number
}

export type StartCountingProxyParameters = {
  target: string
  /**
   * JSON-RPC calls served per sliding second, each member of a batch counted; none by default. A
   * request that would go past it is refused whole as some public nodes do: HTTP 429,
   * `Retry-After: 1` and one JSON-RPC error object, -32005 "limit exceeded", even to a batch
   * (not an array of answers).
   */
  rateLimit?: number
  /** Milliseconds added before each answer the node gives (default 0): a public node takes tens to hundreds. */
  latencyMs?: number
}

export type StartCountingProxyReturnType = {
  url: string
  counts: () => RpcCounts
  /** Most calls that arrived, served or refused, within any one second. */
  peakCallsPerSecond: () => number
  reset: () => void
  /** Sets the milliseconds added before each answer from now on. */
  setLatencyMs: (ms: number) => void
  stop: () => Promise<void>
}

/**
 * A pass-through HTTP proxy in front of the node that counts what goes through: the indexer is
 * pointed at it, so its requests are counted without touching its client. With `rateLimit`, it is
 * also the rate limit of a public node that refuses a batch with one error object.
 */
export async function startCountingProxy({ target, rateLimit = Infinity, latencyMs = 0 }: StartCountingProxyParameters): Promise<StartCountingProxyReturnType> {
  const targetUrl = new URL(target)
  const agent = new Agent({ keepAlive: true })
  const zero = (): RpcCounts => ({ httpRequests: 0, rpcCalls: 0, methods: {}, rateLimited: 0, largestBatch: 0, roundTrips: 0 })
  let counts = zero()
  let inFlight = 0
  let latency = latencyMs
  const callRate = createCallRateWindow({ limit: rateLimit })

  const server = createServer(async (request, response) => {
    const body = await readBody(request)
    const methods = rpcMethods(body)
    counts.httpRequests += 1
    if (inFlight === 0) counts.roundTrips += 1
    inFlight += 1
    response.once('close', () => {
      inFlight -= 1
    })
    counts.largestBatch = Math.max(counts.largestBatch, methods.length)
    if (!callRate.admit(methods.length)) {
      counts.rateLimited += 1
      response
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32005, message: 'limit exceeded' } }))
      return
    }
    for (const method of methods) {
      counts.rpcCalls += 1
      counts.methods[method] = (counts.methods[method] ?? 0) + 1
    }
    const forwarded = httpRequest(
      {
        host: targetUrl.hostname,
        port: targetUrl.port,
        path: request.url,
        method: request.method,
        headers: { ...request.headers, host: targetUrl.host, 'content-length': String(body.length) },
        agent,
      },
      (upstream) => {
        const answer = (): void => {
          response.writeHead(upstream.statusCode ?? 502, upstream.headers)
          upstream.pipe(response)
        }
        if (latency > 0) setTimeout(answer, latency)
        else answer()
      },
    )
    forwarded.on('error', () => {
      if (!response.headersSent) response.writeHead(502)
      response.end()
    })
    forwarded.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => structuredClone(counts),
    peakCallsPerSecond: callRate.peak,
    reset: () => {
      counts = zero()
    },
    setLatencyMs: (ms) => {
      latency = ms
    },
    stop: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      agent.destroy()
    },
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function rpcMethods(body: Buffer): string[] {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown
    const calls = Array.isArray(parsed) ? parsed : [parsed]
    return calls.map((call) => String((call as { method?: unknown }).method))
  } catch {
    return ['(unparsable)']
  }
}
