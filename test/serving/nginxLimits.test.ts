import { readFile } from 'node:fs/promises'
import type { IncomingHttpHeaders } from 'node:http'
import { Agent, request } from 'node:https'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/http/buildApp.ts'
import { createStore } from '../../server/store/createStore.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { makeTestCertificates } from '../support/makeTestCertificates.ts'
import { openApiPath } from '../rest/startRestServer.ts'
import { startNginx, type StartNginxReturnType } from './support/startNginx.ts'

// deploy/nginx.conf's per-client limit (limit_req: 20 a second, a burst of 100) in front of a REST
// app without limits of its own: a flood from one client meets nginx's 429 in our error shape,
// with Retry-After and CORS, and the app never sees the refused requests.

const certificates = makeTestCertificates()
/** nginx reaches the app from this address, which the app trusts (a loopback alias of this file's own: files run side by side). */
const proxyAddress = '127.0.0.7'
let nginx: StartNginxReturnType
let app: FastifyInstance
let httpsPort: number
let served = 0

beforeAll(async () => {
  const store = createStore({ pollIntervalMs: 1_000, chainId: 31337, network: 'devnet' })
  app = buildApp({ store, mode: 'production', openApiText: await readFile(openApiPath, 'utf8'), docsHtml: '<!doctype html>', serving: { https: null, trustProxy: [proxyAddress] } })
  app.addHook('onRequest', async () => void served++)
  const restPort = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port)
  const certificate = certificates.issue('proxy', ['api.example.org', 'mcp.example.org'])
  httpsPort = await getFreePort()
  nginx = await startNginx({ httpsPort, httpPort: await getFreePort(), restPort, mcpPort: restPort, certPath: certificate.certPath, keyPath: certificate.keyPath, proxyBind: proxyAddress })
})

afterAll(async () => {
  await nginx?.stop()
  await app?.close()
  certificates.remove()
})

type Answer = { status: number; headers: IncomingHttpHeaders; body: string }

function get(agent: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: '127.0.0.1', port: httpsPort, servername: 'api.example.org', path: '/v1/stats', headers: { host: `api.example.org:${httpsPort}` }, ca: certificates.ca, agent, timeout: 5_000 },
      (response) => {
        let body = ''
        response.on('data', (chunk: Buffer) => (body += chunk.toString()))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
      },
    )
    sent.on('timeout', () => sent.destroy(new Error('no answer through nginx in 5 s')))
    sent.on('error', reject)
    sent.end()
  })
}

test('default: a flood from one client meets nginx 429s in our shape, which never reach the app', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 })
  const answers = await Promise.all(Array.from({ length: 300 }, () => get(agent)))
  agent.destroy()
  const ok = answers.filter(({ status }) => status === 200)
  const refused = answers.filter(({ status }) => status === 429)
  expect(ok.length + refused.length).toBe(300)
  // The burst of 100 and what 20 a second lets through while the flood lasts; the rest refused.
  expect(ok.length).toBeGreaterThanOrEqual(100)
  expect(refused.length).toBeGreaterThan(100)
  expect(served).toBe(ok.length)
  const [first] = refused
  expect(first?.headers['retry-after']).toBe('1')
  expect(first?.headers['access-control-allow-origin']).toBe('*')
  expect(first?.headers['access-control-expose-headers']).toBe('retry-after')
  expect(first?.headers['content-type']).toBe('application/json')
  expect(JSON.parse(first?.body ?? '')).toEqual({ error: { code: 'rate_limited', message: 'Too many requests from this address: at most 20 a second are served. Retry after 1 s.' } })
})
