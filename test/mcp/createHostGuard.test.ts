import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { loadConfig } from '../../config/loadConfig.ts'
import { createHostGuard, type CreateHostGuardParameters } from '../../mcp/hosted/createHostGuard.ts'
import { startHostedMcpServer } from '../../mcp/hosted/startHostedMcpServer.ts'
import { createStore } from '../../server/store/createStore.ts'
import { httpRequest } from '../rest/httpRequest.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'

const apps: FastifyInstance[] = []
afterAll(() => Promise.all(apps.map((app) => app.close())))

/** A bare app behind the guard, listening on 127.0.0.1 (whatever bind the guard is told of): what it answers to `Host` and `Origin`. */
async function guarded(parameters: Partial<CreateHostGuardParameters> & Pick<CreateHostGuardParameters, 'bindHost'>) {
  const app = Fastify()
  apps.push(app)
  const guard = createHostGuard({ allowedHosts: [], allowedOrigins: [], ...parameters })
  app.get('/', { onRequest: guard ?? [] }, async () => 'served')
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  const port = Number(new URL(url).port)
  const send = async (headers: Record<string, string>) => {
    const response = await httpRequest(url, '/', { headers })
    return response.status === 200 ? 'served' : `${response.status} ${(JSON.parse(response.text) as { error: { message: string } }).error.message}`
  }
  return { port, send, guarded: guard !== undefined }
}

test('default: a loopback bind serves a loopback Host on its own port, and refuses another name', async () => {
  const { port, send } = await guarded({ bindHost: '127.0.0.1' })
  expect(await send({ host: `localhost:${port}` })).toBe('served')
  expect(await send({ host: `127.0.0.1:${port}` })).toBe('served')
  expect(await send({ host: `evil.example:${port}` })).toBe('403 Invalid Host: evil.example')
})

describe('bindHost: every spelling of loopback is guarded', () => {
  test.each(['127.0.0.1', '127.0.1.1', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1', '[::ffff:127.0.0.1]', '::ffff:7f00:1', '0:0:0:0:0:0:0:1'])(
    '%s',
    async (bindHost) => {
      const { port, send } = await guarded({ bindHost })
      expect(await send({ host: `evil.example:${port}` })).toBe('403 Invalid Host: evil.example')
      expect(await send({ host: `localhost:${port}`, origin: 'https://evil.example' })).toBe('403 Invalid Origin header: https://evil.example')
    },
  )

  test.each(['0.0.0.0', '::', '::ffff:10.0.0.1', '10.0.0.1', 'mcp.example.org'])('%s is not loopback: nothing is checked unless named', async (bindHost) => {
    expect((await guarded({ bindHost })).guarded).toBe(false)
  })
})

describe('the port of a loopback Host', () => {
  test('another port (something forwarded the connection): 403 naming the port served', async () => {
    const { port, send } = await guarded({ bindHost: '127.0.0.1' })
    const other = port === 65_535 ? port - 1 : port + 1
    expect(await send({ host: `localhost:${other}` })).toBe(`403 Invalid Host: localhost:${other}: this server listens on port ${port}`)
    expect(await send({ host: `[::1]:${other}` })).toBe(`403 Invalid Host: [::1]:${other}: this server listens on port ${port}`)
  })

  test("no port means the scheme's (80), which this server is not on: 403", async () => {
    const { port, send } = await guarded({ bindHost: '127.0.0.1' })
    expect(await send({ host: 'localhost' })).toBe(`403 Invalid Host: localhost: this server listens on port ${port}`)
  })

  test('every loopback spelling of the Host, on the right port, is served', async () => {
    const { port, send } = await guarded({ bindHost: '::ffff:127.0.0.1' })
    for (const host of ['localhost', '127.0.0.1', '127.0.0.2', '[::1]', '[::ffff:127.0.0.1]', 'LOCALHOST']) expect(await send({ host: `${host}:${port}` }), host).toBe('served')
  })

  test('a name given with --allowed-hosts is the public one behind a proxy: any port (the proxy’s)', async () => {
    const { port, send } = await guarded({ bindHost: '127.0.0.1', allowedHosts: ['mcp.example.org'] })
    expect(await send({ host: 'mcp.example.org' })).toBe('served')
    expect(await send({ host: 'mcp.example.org:8443' })).toBe('served')
    expect(await send({ host: `localhost:${port + 1}` })).toMatch(/^403 /)
  })
})

test('the hosted MCP server bound to ::ffff:127.0.0.1, over a real socket: a rebinding Host and a foreign port are refused, its own served', async () => {
  const { rpcUrl, deployment } = inject('devnet')
  const config = loadConfig({
    argv: ['--network', 'devnet', '--rpc-url', rpcUrl, ...deploymentArgv(deployment), '--host', '::ffff:127.0.0.1', '--mcp-port', '0'],
    env: {},
  })
  const hosted = await startHostedMcpServer(config, { store: createStore({ pollIntervalMs: 1_000, chainId: 31337, network: 'devnet' }), log: () => {} })
  try {
    const port = Number(/:(\d+)$/.exec(hosted.url)?.[1])
    const post = (host: string) =>
      httpRequest(`http://127.0.0.1:${port}`, '/mcp', {
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
    expect((await post(`127.0.0.1:${port}`)).status).toBe(200)
    const rebinding = await post(`evil.example:${port}`)
    expect(rebinding.status).toBe(403)
    expect(JSON.parse(rebinding.text)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Invalid Host: evil.example' }, id: null })
    expect((await post(`localhost:${port + 1}`)).status).toBe(403)
  } finally {
    await hosted.close()
  }
})
