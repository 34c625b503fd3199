import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readRequestBody } from '../../support/readRequestBody.ts'

export type JsonRpcRequest = { jsonrpc: '2.0'; id: unknown; method: string; params?: unknown[] }
export type JsonRpcResponse = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: unknown }

/**
 * Decides the fate of one JSON-RPC request: forward it (and maybe rewrite the answer), answer
 * it without the node, or `'drop'` the connection after the node has seen it (a lost answer).
 */
export type Intercept = (
  request: JsonRpcRequest,
  forward: () => Promise<JsonRpcResponse>,
) => Promise<JsonRpcResponse | 'drop'>

export type InterceptingRpc = { url: string; stop: () => Promise<void> }

/** A JSON-RPC proxy on 127.0.0.1 in front of a real node, single and batch requests alike. */
export async function startInterceptingRpc({
  target,
  intercept,
}: {
  target: string
  intercept: Intercept
}): Promise<InterceptingRpc> {
  const forwardOne = async (request: JsonRpcRequest): Promise<JsonRpcResponse> => {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    })
    return (await response.json()) as JsonRpcResponse
  }
  const server = createServer(async (request, response) => {
    const body = JSON.parse(await readRequestBody(request)) as JsonRpcRequest | JsonRpcRequest[]
    const requests = Array.isArray(body) ? body : [body]
    const answers = await Promise.all(requests.map((item) => intercept(item, () => forwardOne(item))))
    if (answers.includes('drop')) {
      request.socket.destroy()
      return
    }
    const payload = Array.isArray(body) ? answers : answers[0]
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

