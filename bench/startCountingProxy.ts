import { Agent, createServer, request as httpRequest, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export type RpcCounts = {
  /** HTTP requests (a JSON-RPC batch is one). */
  httpRequests: number
  /** JSON-RPC calls (each call of a batch counts). */
  rpcCalls: number
  /** Calls per JSON-RPC method. */
  methods: Record<string, number>
}

export type StartCountingProxyParameters = { target: string }

export type StartCountingProxyReturnType = {
  url: string
  counts: () => RpcCounts
  reset: () => void
  stop: () => Promise<void>
}

/**
 * A pass-through HTTP proxy in front of the node that counts what goes through: the indexer is
 * pointed at it, so its requests are counted without touching its client.
 */
export async function startCountingProxy({ target }: StartCountingProxyParameters): Promise<StartCountingProxyReturnType> {
  const targetUrl = new URL(target)
  const agent = new Agent({ keepAlive: true })
  let counts: RpcCounts = { httpRequests: 0, rpcCalls: 0, methods: {} }

  const server = createServer(async (request, response) => {
    const body = await readBody(request)
    counts.httpRequests += 1
    for (const method of rpcMethods(body)) {
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
        response.writeHead(upstream.statusCode ?? 502, upstream.headers)
        upstream.pipe(response)
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
    reset: () => {
      counts = { httpRequests: 0, rpcCalls: 0, methods: {} }
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
