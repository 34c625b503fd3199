import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ErrorBodySchema } from '../../contract/error.ts'
import type { ServerLimits } from '../../platform/http/hardenServer.ts'
import { startHostedMcp, startRest, startSeller, type HardenedServer } from './startHardenedServers.ts'

// Every HTTP server we ship (REST, hosted MCP, the reference seller's outputs), with limits small
// enough to watch: half-sent requests and silent sockets are closed, a flood of connections is
// capped, and what Node refuses before any route runs still gets our error shape with CORS.

const limits: ServerLimits = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 800,
  keepAliveTimeoutMs: 400,
  idleTimeoutMs: 800,
  maxConnections: 20,
  // The flood comes from one address: what it meets here is the global cap (perClientLimits.test.ts has the per-address one).
  maxConnectionsPerAddress: 0,
}

/**
 * A half-sent or silent socket is closed by the headers timeout (the 408 says which timeout it was),
 * and nothing else here would close it with a 408: a bound of that timeout plus this slack says it
 * was closed rather than kept. The slack is for a loaded host, not a speed target.
 */
const slackMs = 10_000

type RawAnswer = { status: number; headers: Record<string, string>; body: string; closedAfterMs: number }

/** Writes `text` on a fresh socket and reads until the server closes it. */
function raw(port: number, text: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    let data = ''
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')))
    socket.on('error', reject)
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n', 2)
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      )
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, closedAfterMs: performance.now() - started })
    })
  })
}

function expectErrorShape(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status)
  expect(answer.headers['access-control-allow-origin']).toBe('*')
  expect(answer.headers['content-type']).toMatch(/^application\/json/)
  expect(ErrorBodySchema.parse(JSON.parse(answer.body)).error.code).toBe(code)
}

async function getStatus(port: number, path: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`)
  await response.arrayBuffer()
  return response.status
}

describe.each([
  ['REST', startRest],
  ['hosted MCP', startHostedMcp],
  ['seller', startSeller],
] as const)('%s server', (_, start) => {
  let served: HardenedServer

  beforeAll(async () => {
    served = await start(limits)
  })
  afterAll(() => served?.close())

  test('a half-sent request is answered 408 and closed', async () => {
    const answer = await raw(served.port, `GET ${served.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: applic`)
    expectErrorShape(answer, 408, 'request_timeout')
    expect(answer.closedAfterMs).toBeLessThan(limits.headersTimeoutMs + slackMs)
  })

  test('a socket that never sends a byte is answered 408 and closed', async () => {
    const answer = await raw(served.port, '')
    expectErrorShape(answer, 408, 'request_timeout')
    expect(answer.closedAfterMs).toBeLessThan(limits.headersTimeoutMs + slackMs)
  })

  test('a flood of idle sockets is capped and does not stop the server answering', async () => {
    const sockets: Socket[] = []
    const closed = new Set<Socket>()
    for (let index = 0; index < 5 * limits.maxConnections; index++) {
      const socket = connect(served.port, '127.0.0.1')
      socket.on('error', () => {})
      socket.on('close', () => closed.add(socket))
      sockets.push(socket)
    }
    try {
      await new Promise((resolve) => setTimeout(resolve, 200))
      // Those over the cap are closed at once; at most the cap stay open.
      expect(sockets.length - closed.size).toBeLessThanOrEqual(limits.maxConnections)
      // Once the idle ones time out, the server answers again.
      const deadline = Date.now() + limits.idleTimeoutMs + slackMs
      let status: number | undefined
      while (status === undefined && Date.now() < deadline) {
        status = await getStatus(served.port, served.path).catch(() => undefined)
        if (status === undefined) await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(status).toBeDefined()
      expect(status).toBeLessThan(500)
    } finally {
      for (const socket of sockets) socket.destroy()
      // The next test's one connection must not meet the cap: wait until a fresh connection is
      // answered, i.e. the server has seen these closes (a loaded host can be slower than the next test's connect).
      await expect.poll(async () => (await raw(served.port, `GET ${served.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`).catch(() => undefined))?.status).toBeLessThan(500)
    }
  })

  test('headers over the size limit: 431 in our shape', async () => {
    const answer = await raw(served.port, `GET ${served.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)
    expectErrorShape(answer, 431, 'headers_too_large')
  })

  test('a request that is not HTTP: 400 in our shape', async () => {
    expectErrorShape(await raw(served.port, 'HELLO THERE\r\n\r\n'), 400, 'malformed_request')
  })

  test('no Host header: 400 in our shape', async () => {
    expectErrorShape(await raw(served.port, `GET ${served.path} HTTP/1.1\r\nConnection: close\r\n\r\n`), 400, 'missing_host')
  })

  test('an Expect other than 100-continue: 417 in our shape', async () => {
    const answer = await raw(served.port, `GET ${served.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: teapot\r\nConnection: close\r\n\r\n`)
    expectErrorShape(answer, 417, 'expectation_failed')
  })

  test('CONNECT: 405 in our shape', async () => {
    const answer = await raw(served.port, 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n')
    expectErrorShape(answer, 405, 'method_not_allowed')
    expect(answer.headers.allow).toBeDefined()
  })

  test('broken percent-encoding: 400 in our shape', async () => {
    const answer = await raw(served.port, `GET ${served.path}%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    expectErrorShape(answer, 400, 'malformed_url')
  })

  test('HEAD of an unknown path: 404 with CORS, no body', async () => {
    const answer = await raw(served.port, 'HEAD /nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
    expect(answer.status).toBe(404)
    expect(answer.headers['access-control-allow-origin']).toBe('*')
    expect(answer.body).toBe('')
  })
})
