import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readRequestBody } from '../../support/readRequestBody.ts'

export type StubCall = { id: number; method: string; receivedAt: number }
/** The whole HTTP answer to a request, in place of the calls' answers (an HTTP 429, a 500). */
export type StubHttpReply = { status: number; headers?: Record<string, string>; body?: string }
export type StubCallReply = { result: unknown } | { error: { code: number; message: string } }

export type StartRpcStubParameters = {
  /** The `n`th HTTP request (from 0) and its calls; undefined to answer each call. */
  reply?: (request: { n: number; calls: StubCall[] }) => StubHttpReply | undefined
  /** Each call's answer inside an HTTP 200 (default: `result` "0x1"). */
  answer?: (call: StubCall, request: { n: number }) => StubCallReply
}

export type RpcStub = {
  url: string
  /** Every call received, batch members one by one, in arrival order. */
  calls: StubCall[]
  /** Calls per HTTP request, in arrival order. */
  batches: number[]
  /** When each HTTP answer was sent (performance.now()), in order. */
  answeredAt: number[]
  close: () => Promise<void>
}

/** A JSON-RPC node on 127.0.0.1 that answers what the test says and records what it was sent. */
export async function startRpcStub({ reply = () => undefined, answer = () => ({ result: '0x1' }) }: StartRpcStubParameters = {}): Promise<RpcStub> {
  const calls: StubCall[] = []
  const batches: number[] = []
  const answeredAt: number[] = []
  const server = createServer(async (request, response) => {
    const receivedAt = performance.now()
    const body = JSON.parse(await readRequestBody(request)) as { id: number; method: string } | { id: number; method: string }[]
    const members = (Array.isArray(body) ? body : [body]).map(({ id, method }) => ({ id, method, receivedAt }))
    const n = batches.length
    calls.push(...members)
    batches.push(members.length)
    const http = reply({ n, calls: members })
    if (http !== undefined) {
      response.writeHead(http.status, { 'content-type': http.body === undefined ? 'application/json' : 'text/plain', ...http.headers })
      answeredAt.push(performance.now())
      response.end(http.body ?? JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: http.status, message: 'stub HTTP answer' } }))
      return
    }
    const answers = members.map((call) => ({ jsonrpc: '2.0', id: call.id, ...answer(call, { n }) }))
    response.writeHead(200, { 'content-type': 'application/json' })
    answeredAt.push(performance.now())
    response.end(JSON.stringify(Array.isArray(body) ? answers : answers[0]))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    batches,
    answeredAt,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

