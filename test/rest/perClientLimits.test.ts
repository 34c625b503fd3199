import { existsSync } from 'node:fs'
import { Agent, request, type IncomingHttpHeaders } from 'node:http'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { sendFromOneAddress } from '../support/sendFromOneAddress.ts'
import { projectRoot, spawnEntryPoint, type SpawnedEntryPoint } from './spawnEntryPoint.ts'

// `npm run serve -- --mcp-port <port>` at its default per-client limits (1200 requests a minute,
// 64 connections per address): one address flooding or holding sockets is refused while its
// neighbour is served. Clients are told apart by the address their sockets are bound to.

const devnet = inject('devnet')
const flooder = '127.0.0.2'
const neighbour = '127.0.0.3'
const defaultRateLimit = 1_200
const defaultConnectionsPerAddress = 64

let serve: SpawnedEntryPoint
let restPort: number
let mcpPort: number

beforeAll(async () => {
  expect(existsSync(join(projectRoot, 'dist/app/serve.js')), 'run `npx tsup --env.only app`').toBe(true)
  ;[restPort, mcpPort] = await Promise.all([getFreePort(), getFreePort()])
  serve = spawnEntryPoint(['dist/app/serve.js', '--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(devnet.deployment), '--port', String(restPort), '--mcp-port', String(mcpPort)])
  await serve.waitFor(/hosted MCP \(devnet\) serving on/)
})

afterAll(async () => expect(await serve.stop()).toBe(0))

type Answer = { status: number; headers: IncomingHttpHeaders; body: string }

function get(port: number, path: string, { localAddress, agent }: { localAddress: string; agent: Agent | false }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, localAddress, agent, timeout: 5_000 }, (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
    })
    sent.on('timeout', () => sent.destroy(new Error(`GET ${path} from ${localAddress}: no answer in 5 s`)))
    sent.on('error', reject)
    sent.end()
  })
}

/** `count` requests from one address over `inFlight` keep-alive connections. */
function flood(port: number, path: string, { localAddress, count, inFlight = 16 }: { localAddress: string; count: number; inFlight?: number }): Promise<Answer[]> {
  return sendFromOneAddress((agent) => get(port, path, { localAddress, agent }), { count, inFlight })
}

function expectRateLimitHeaders(headers: IncomingHttpHeaders): void {
  const retryAfter = Number(headers['retry-after'])
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(60)
  expect(headers['ratelimit-policy']).toBe(`"per-client";q=${defaultRateLimit};w=60`)
  expect(headers.ratelimit).toBe(`"per-client";r=0;t=${retryAfter}`)
  expect(headers['access-control-allow-origin']).toBe('*')
  expect(String(headers['access-control-expose-headers']).split(/,\s*/)).toEqual(expect.arrayContaining(['retry-after', 'ratelimit', 'ratelimit-policy']))
}

test('default: a REST flood from one address meets 429s in our shape while its neighbour is served', async () => {
  const [answers, served] = await Promise.all([
    flood(restPort, '/v1/stats', { localAddress: flooder, count: defaultRateLimit + 100 }),
    flood(restPort, '/v1/stats', { localAddress: neighbour, count: 10, inFlight: 1 }),
  ])
  expect(answers.filter(({ status }) => status === 200)).toHaveLength(defaultRateLimit)
  const refused = answers.filter(({ status }) => status === 429)
  expect(refused).toHaveLength(100)
  expectRateLimitHeaders(refused[0]!.headers)
  expect(JSON.parse(refused[0]!.body)).toEqual({
    error: { code: 'rate_limited', message: expect.stringMatching(/^Too many requests from this address: at most 1200 are served every 60 s\. Retry after \d+ s\.$/) },
  })
  expect(served.map(({ status }) => status)).toEqual(Array(10).fill(200))
})

test('the hosted MCP server: a flood meets 429s as JSON-RPC errors while /healthz and /metrics still answer the flooder', async () => {
  const prober = '127.0.0.4'
  const answers = await flood(mcpPort, '/mcp', { localAddress: prober, count: defaultRateLimit + 10 })
  expect(answers.filter(({ status }) => status === 405)).toHaveLength(defaultRateLimit)
  const refused = answers.filter(({ status }) => status === 429)
  expect(refused).toHaveLength(10)
  expectRateLimitHeaders(refused[0]!.headers)
  expect(JSON.parse(refused[0]!.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringMatching(/^Too many requests/) } })
  expect((await get(mcpPort, '/mcp', { localAddress: prober, agent: false })).status).toBe(429)
  for (const probe of ['/healthz', '/metrics']) expect([probe, (await get(mcpPort, probe, { localAddress: prober, agent: false })).status]).toEqual([probe, 200])
  expect((await get(mcpPort, '/healthz', { localAddress: neighbour, agent: false })).status).toBe(200)
})

test('a load balancer sharing the flooder\'s address still reads /healthz, /readyz and /metrics', async () => {
  expect((await get(restPort, '/v1/stats', { localAddress: flooder, agent: false })).status).toBe(429)
  for (const probe of ['/healthz', '/readyz', '/metrics']) {
    expect([probe, (await get(restPort, probe, { localAddress: flooder, agent: false })).status]).toEqual([probe, 200])
    expect([probe, (await get(restPort, `${probe}?`, { localAddress: flooder, agent: false })).status]).toEqual([probe, 200])
  }
  expect((await get(restPort, '/healthz/', { localAddress: flooder, agent: false })).status).toBe(429)
})

test('700 keep-alive sockets held from one address, reopened as the server closes them, do not keep its neighbour from being served', async () => {
  let holding = true
  let open = 0
  let mostOpen = 0
  let refusedAtOnce = 0
  const sockets = new Set<ReturnType<typeof connect>>()
  const hold = (): void => {
    if (!holding) return
    let answered = false
    const socket = connect({ host: '127.0.0.1', port: restPort, localAddress: flooder }, () => {
      socket.write('GET /v1/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n')
    })
    sockets.add(socket)
    socket.on('data', () => {
      if (answered) return
      answered = true
      mostOpen = Math.max(mostOpen, ++open)
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      sockets.delete(socket)
      if (answered) open--
      else refusedAtOnce++
      setTimeout(hold, 100)
    })
  }
  for (let index = 0; index < 700; index++) hold()
  await new Promise((resolve) => setTimeout(resolve, 2_000))

  const served: number[] = []
  for (let index = 0; index < 10; index++) served.push((await get(restPort, '/v1/stats', { localAddress: neighbour, agent: false })).status)
  holding = false
  for (const socket of sockets) socket.destroy()

  expect(served).toEqual(Array(10).fill(200))
  expect(mostOpen).toBeLessThanOrEqual(defaultConnectionsPerAddress)
  expect(refusedAtOnce).toBeGreaterThanOrEqual(700 - defaultConnectionsPerAddress)
})
