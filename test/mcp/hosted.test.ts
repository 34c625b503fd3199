import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { JobSchema } from '../../contract/job.ts'
import { ListServicesResultSchema, McpHealthSchema, VerifyAttestationResultSchema } from '../../contract/mcp.ts'
import { ServiceSchema } from '../../contract/service.ts'
import { createChainOracle } from '../support/createChainOracle.ts'
import { httpRequest } from '../rest/httpRequest.ts'
import { startRestServer, type RestServer } from '../rest/startRestServer.ts'
import { devnetEnv } from './support/devnetEnv.ts'
import { postRawToolCall } from './support/postRawToolCall.ts'
import { rotatedServiceId, seededJobs } from './support/seededJobs.ts'
import { spawnHostedMcp, type SpawnHostedMcpReturnType } from './support/spawnHostedMcp.ts'

const devnet = inject('devnet')
const hostedToolNames = ['list_services', 'get_service', 'get_service_tee', 'get_job', 'verify_attestation']
/** Hardhat account #9: a funded key that the hosted server must ignore. */
const buyerKey = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'

const chain = createChainOracle(createPublicClient({ transport: http(devnet.rpcUrl) }), devnet.deployment)

/** callTool, typed as the tool-call result it always is here (never a task). */
async function call(client: Client, name: string, args?: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, ...(args === undefined ? {} : { arguments: args }) })) as CallToolResult
}

function textOf(result: CallToolResult): string {
  const [first] = result.content
  if (first?.type !== 'text') throw new Error('expected a text block')
  return first.text
}

/** The document's contract: the response object is the JSON in content[0].text, also structured. */
function responseOf(result: CallToolResult): unknown {
  expect(result.isError ?? false).toBe(false)
  const parsed: unknown = JSON.parse(textOf(result))
  expect(result.structuredContent).toEqual(parsed)
  return parsed
}

describe.each(['chain', 'indexer'] as const)('hosted MCP server reading the %s', (sourceName) => {
  let rest: RestServer | undefined
  let hosted: SpawnHostedMcpReturnType
  let client: Client
  let mcpUrl: string

  beforeAll(async () => {
    rest = sourceName === 'indexer' ? await startRestServer() : undefined
    hosted = await spawnHostedMcp({
      env: devnetEnv(devnet, {
        ...(rest === undefined ? { MCP_SOURCE: 'chain' } : { INDEXER_URL: rest.baseUrl }),
        MARKET_PRIVATE_KEY: buyerKey,
      }),
    })
    mcpUrl = `${hosted.url}/mcp`
    client = new Client({ name: 'hosted-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)))
  })

  afterAll(async () => {
    await client?.close()
    await hosted?.stop()
    await rest?.stop()
  })

  test('default: exactly the five read tools, even with MARKET_PRIVATE_KEY set', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([...hostedToolNames].sort())
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true)
      expect(tool.outputSchema?.type).toBe('object')
      expect(tool.description?.length).toBeGreaterThan(100)
    }
    expect(hosted.stderr()).not.toContain(buyerKey.slice(2))
  })

  describe('list_services', () => {
    test('network, chainId and every service, count = length', async () => {
      const result = ListServicesResultSchema.parse(responseOf(await call(client, 'list_services')))
      expect(result.network).toBe('devnet')
      expect(result.chainId).toBe(31337)
      expect(result.count).toBe(result.services.length)
      expect(result.services).toEqual(await chain.listServices())
    })
  })

  describe('get_service', () => {
    test('the registry record', async () => {
      const result = ServiceSchema.parse(
        responseOf(await call(client, 'get_service', { serviceId: '1' })),
      )
      expect(result).toEqual(await chain.getService({ serviceId: 1n }))
    })

    test('unknown id: isError naming it', async () => {
      const result = await call(client, 'get_service', { serviceId: '999' })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toMatchInlineSnapshot(`"Service "999" could not be found."`)
    })
  })

  describe('get_job', () => {
    test('a settled job with its attestation, as the chain holds it', async () => {
      const result = JobSchema.parse(
        responseOf(await call(client, 'get_job', { jobId: seededJobs.settled })),
      )
      expect(result.stateName).toBe('Settled')
      expect(result.attestationSignature).toMatch(/^0x[0-9a-f]{130}$/)
      expect(result).toEqual(await chain.getJob({ jobId: BigInt(seededJobs.settled) }))
      expect(result).not.toHaveProperty('events')
    })

    test('a pending job has no attestation keys', async () => {
      const result = JobSchema.parse(
        responseOf(await call(client, 'get_job', { jobId: seededJobs.pending })),
      )
      expect(result.stateName).toBe('Pending')
      expect(result).not.toHaveProperty('attestationText')
    })

    test('unknown id: isError naming it', async () => {
      const result = await call(client, 'get_job', { jobId: '999999' })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toMatchInlineSnapshot(`"Job "999999" could not be found."`)
    })
  })

  describe('verify_attestation', () => {
    test('a job signed by the registered key: ok, expectedSigner = recoveredSigner', async () => {
      const result = VerifyAttestationResultSchema.parse(
        responseOf(await call(client, 'verify_attestation', { jobId: seededJobs.settled })),
      )
      const job = await chain.getJob({ jobId: BigInt(seededJobs.settled) })
      const service = await chain.getService({ serviceId: BigInt(job.serviceId) })
      expect(result).toMatchObject({ jobId: seededJobs.settled, ok: true, expectedSigner: service.signingAddress })
      expect(result.recoveredSigner).toBe(result.expectedSigner)
    })

    test('a job signed before its service rotated the key: ok false, the note says so', async () => {
      const result = VerifyAttestationResultSchema.parse(
        responseOf(
          await call(client, 'verify_attestation', { jobId: seededJobs.signedBeforeRotation }),
        ),
      )
      const service = await chain.getService({ serviceId: BigInt(rotatedServiceId) })
      expect(result.ok).toBe(false)
      expect(result.expectedSigner).toBe(service.signingAddress)
      expect(result.recoveredSigner).not.toBeNull()
      expect(result.recoveredSigner).not.toBe(service.signingAddress)
      expect(result.note).toContain('rotated its signing key')
      expect(result.note).toContain(result.recoveredSigner)
    })

    test('a job signed with the rotated-to key: ok', async () => {
      const result = VerifyAttestationResultSchema.parse(
        responseOf(
          await call(client, 'verify_attestation', { jobId: seededJobs.signedAfterRotation }),
        ),
      )
      expect(result.ok).toBe(true)
    })

    test.each([
      ['pending', seededJobs.pending, 'Pending (state 0)'],
      ['expired', seededJobs.expired, 'Expired (state 4)'],
    ])('a %s job: isError naming its state', async (_, jobId, state) => {
      const result = await call(client, 'verify_attestation', { jobId })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toBe(`Job "${jobId}" has no attestation yet: it is ${state}.`)
    })

    test('unknown id: isError naming it', async () => {
      const result = await call(client, 'verify_attestation', { jobId: '999999' })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toBe('Job "999999" could not be found.')
    })
  })

  describe('bad arguments: a clear error, and the server keeps serving', () => {
    test.each([
      ['abc', { serviceId: 'abc' }],
      ['"0"', { serviceId: '0' }],
      ['leading zero', { serviceId: '01' }],
      ['negative', { serviceId: '-1' }],
      ['a number', { serviceId: 1 }],
      ['null', { serviceId: null }],
      ['missing', {}],
    ])('get_service with %s', async (_, args) => {
      const result = await call(client, 'get_service', args)
      expect(result.isError).toBe(true)
      expect(textOf(result)).toContain('Invalid arguments for tool get_service')
      expect(textOf(result)).toContain('serviceId')
      const after = await call(client, 'get_service', { serviceId: '1' })
      expect(after.isError ?? false).toBe(false)
    })

    test.each([
      ['get_job', { jobId: 'abc' }, 'jobId'],
      ['get_job', { jobId: '0' }, 'jobId'],
      ['verify_attestation', { jobId: '1.5' }, 'jobId'],
      ['verify_attestation', {}, 'jobId'],
    ])('%s with %j', async (name, args, field) => {
      const result = await call(client, name, args)
      expect(result.isError).toBe(true)
      expect(textOf(result)).toContain(`Invalid arguments for tool ${name}`)
      expect(textOf(result)).toContain(field)
    })

    test('run is not offered', async () => {
      const result = await postRawToolCall(mcpUrl, { name: 'run', args: { serviceId: '1', prompt: 'hi' } })
      const message = result.events[0]?.data as { result?: CallToolResult; error?: { message: string } }
      const text = message.error?.message ?? (message.result === undefined ? '' : textOf(message.result))
      expect(text).toContain('Tool run not found')
    })
  })

  describe('the raw call shape: one POST, no initialize, answered as an event stream', () => {
    test.each([
      ['list_services', {}, ListServicesResultSchema],
      ['get_service', { serviceId: '2' }, ServiceSchema],
      ['get_job', { jobId: seededJobs.settled }, JobSchema],
      ['verify_attestation', { jobId: seededJobs.settled }, VerifyAttestationResultSchema],
    ] as const)('%s', async (name, args, schema) => {
      const result = await postRawToolCall(mcpUrl, { name, args, id: 7 })
      expect(result.status).toBe(200)
      expect(result.contentType).toContain('text/event-stream')
      expect(result.events).toHaveLength(1)
      const [event] = result.events
      expect(event?.event).toBe('message')
      const message = event?.data as { jsonrpc: string; id: number; result: { content: { type: string; text: string }[] } }
      expect(message).toMatchObject({ jsonrpc: '2.0', id: 7 })
      // list_services and get_service add the TEE verdict in a line beside the answer.
      const withTeeLine = name === 'list_services' || name === 'get_service'
      expect(message.result.content.map(({ type }) => type)).toEqual(withTeeLine ? ['text', 'text'] : ['text'])
      if (withTeeLine) expect(message.result.content[1]!.text).toMatch(/^TEE(: | verdicts by serviceId \()/)
      expect(Object.keys(message).sort()).toEqual(['id', 'jsonrpc', 'result'])
      schema.parse(JSON.parse(message.result.content[0]!.text))
    })

    test('an unknown id the same way: isError naming it', async () => {
      const result = await postRawToolCall(mcpUrl, { name: 'get_job', args: { jobId: '424242' } })
      const message = result.events[0]?.data as { result: CallToolResult }
      expect(message.result.isError).toBe(true)
      expect(textOf(message.result)).toBe('Job "424242" could not be found.')
    })
  })

  describe('HTTP', () => {
    test('GET /healthz', async () => {
      const response = await fetch(`${hosted.url}/healthz`)
      expect(response.status).toBe(200)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      const health = McpHealthSchema.parse(await response.json())
      expect(health).toEqual({ ok: true, service: 'tee-market-mcp', network: 'devnet', chainId: 31337, tools: hostedToolNames })
    })

    test.each(['GET', 'DELETE'])('%s /mcp: 405 with a JSON-RPC error body', async (method) => {
      const response = await fetch(mcpUrl, { method, headers: { accept: 'application/json, text/event-stream' } })
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe('POST, OPTIONS')
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null })
    })

    test('CORS preflight', async () => {
      const response = await fetch(mcpUrl, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://agent.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-protocol-version',
        },
      })
      expect(response.status).toBe(204)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-allow-methods')).toContain('POST')
      expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('mcp-protocol-version')
    })

    test('a body over the limit: 413 with a clear error', async () => {
      const response = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_service', arguments: { serviceId: '1'.repeat(2_000_000) } },
        }),
      })
      expect(response.status).toBe(413)
      const body = (await response.json()) as { error: { message: string } }
      expect(body.error.message).toContain('1048576 bytes')
    })

    test('a body that is not JSON: 400 parse error', async () => {
      const response = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc": "2.0",',
      })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null })
    })

    test('a client that does not accept event streams: 406 with a JSON-RPC error body', async () => {
      const response = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
      expect(response.status).toBe(406)
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null })
    })

    test('an unsupported Mcp-Protocol-Version: 400 naming it', async () => {
      const response = await fetch(mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '1999-01-01',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
      expect(response.status).toBe(400)
      const body = (await response.json()) as { error: { message: string } }
      expect(body.error.message).toContain('Unsupported protocol version: 1999-01-01')
    })

    test('a notification alone: 202 with no body', async () => {
      const response = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      })
      expect(response.status).toBe(202)
      expect(await response.text()).toBe('')
    })

    test('a batch: one event stream, one message event per request, each with its id', async () => {
      const response = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_service', arguments: { serviceId: '1' } } },
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', id: 2, method: 'ping' },
        ]),
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/event-stream')
      const messages = (await response.text())
        .split('\n\n')
        .filter((block) => block !== '')
        .map((block) => {
          expect(block.startsWith('event: message\ndata: ')).toBe(true)
          return JSON.parse(block.slice('event: message\ndata: '.length)) as { id: number; result: unknown }
        })
      expect(messages.map(({ id }) => id).sort()).toEqual([1, 2])
      const service = messages.find(({ id }) => id === 1)?.result as CallToolResult
      expect(ServiceSchema.parse(service.structuredContent)).toEqual(await chain.getService({ serviceId: 1n }))
      expect(messages.find(({ id }) => id === 2)?.result).toEqual({})
    })

    test('a body sent as text/plain: 415 with a JSON-RPC error body, as the SDK answers', async () => {
      const response = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
      expect(response.status).toBe(415)
      expect(await response.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' },
        id: null,
      })
    })

    test('a foreign Origin on a loopback bind: 403, the call is not made', async () => {
      const response = await httpRequest(hosted.url, '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: 'https://evil.example' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_service', arguments: { serviceId: '1' } } }),
      })
      expect(response.status).toBe(403)
      expect(JSON.parse(response.text)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Invalid Origin header: https://evil.example' },
        id: null,
      })
    })

    test('a Host that is not a loopback name (DNS rebinding): 403', async () => {
      const response = await httpRequest(hosted.url, '/mcp', {
        method: 'POST',
        headers: { host: 'evil.example:8081', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
      expect(response.status).toBe(403)
      expect(JSON.parse(response.text)).toMatchObject({ error: { code: -32000, message: 'Invalid Host: evil.example' } })
    })

    test('a loopback Origin is served', async () => {
      const { port } = new URL(hosted.url)
      const response = await httpRequest(hosted.url, '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: `http://localhost:${port}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
      expect(response.status).toBe(200)
    })

    test('initialize: tools without listChanged (a stateless server can never send it)', async () => {
      expect(client.getServerCapabilities()?.tools).toEqual({})
    })

    test('still serving after all of the above', async () => {
      const result = await call(client, 'get_service', { serviceId: '1' })
      expect(result.isError ?? false).toBe(false)
    })
  })
})

describe('hosted MCP server with nothing named to read', () => {
  test('no --indexer-url and no --mcp-source chain: it does not start, and says what to give', async () => {
    await expect(spawnHostedMcp({ env: devnetEnv(devnet) })).rejects.toThrow(
      'The hosted MCP server has no index to read. Run it inside the indexer (npm run serve -- --mcp-port <port>), ' +
        'point it at a REST indexer (--indexer-url <url>), or, to read the node on every tool call (each call spends the ' +
        "node's rate limit), say so with --mcp-source chain.",
    )
  })

  test('--mcp-source chain with --indexer-url: refused, naming both', async () => {
    await expect(
      spawnHostedMcp({ env: devnetEnv(devnet, { MCP_SOURCE: 'chain', INDEXER_URL: 'http://127.0.0.1:9' }) }),
    ).rejects.toThrow('--mcp-source chain reads the node, --indexer-url "http://127.0.0.1:9" a REST indexer: give one of them.')
  })
})

describe('hosted MCP server whose chain does not answer', () => {
  test('GET /healthz: 503, ok false; tool calls fail with a clear error and the server keeps serving', async () => {
    const hosted = await spawnHostedMcp({ env: devnetEnv({ ...devnet, rpcUrl: 'http://127.0.0.1:9' }, { MCP_SOURCE: 'chain' }) })
    try {
      const response = await fetch(`${hosted.url}/healthz`)
      expect(response.status).toBe(503)
      expect(McpHealthSchema.parse(await response.json())).toMatchObject({ ok: false, chainId: 31337 })
      for (let attempt = 0; attempt < 2; attempt++) {
        const result = await postRawToolCall(`${hosted.url}/mcp`, { name: 'get_service', args: { serviceId: '1' } })
        const message = result.events[0]?.data as { result: CallToolResult }
        expect(message.result.isError).toBe(true)
        expect(textOf(message.result)).toBe(
          'Tool "get_service" could not complete: the chain or indexer did not answer as expected. Try again shortly.',
        )
      }
      expect(hosted.stderr()).toContain('get_service failed')
    } finally {
      await hosted.stop()
    }
  })
})

describe('hosted MCP server behind a proxy (--allowed-hosts, --allowed-origins)', () => {
  test('the named host and origin are served, others refused', async () => {
    const hosted = await spawnHostedMcp({
      env: devnetEnv(devnet, { MCP_SOURCE: 'chain', MCP_ALLOWED_HOSTS: 'mcp.example.org', MCP_ALLOWED_ORIGINS: 'https://app.example.org' }),
    })
    const post = (headers: Record<string, string>) =>
      httpRequest(hosted.url, '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
    try {
      expect((await post({ host: 'mcp.example.org', origin: 'https://app.example.org' })).status).toBe(200)
      expect((await post({})).status).toBe(200)
      expect((await post({ host: 'other.example.org' })).status).toBe(403)
      expect((await post({ origin: 'https://other.example.org' })).status).toBe(403)
    } finally {
      await hosted.stop()
    }
  })
})
