import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import type { Config } from '../../config/ConfigSchema.ts'
import { loadConfig } from '../../config/loadConfig.ts'
import { JobSchema } from '../../contract/job.ts'
import { ListServicesResultSchema } from '../../contract/mcp.ts'
import { startHostedMcpServer, type StartHostedMcpServerReturnType } from '../../mcp/hosted/startHostedMcpServer.ts'
import { createChainOracle } from '../support/createChainOracle.ts'
import { startIndexer } from '../../server/indexer/startIndexer.ts'
import type { Indexer } from '../../server/indexer/createIndexer.ts'
import { createStore } from '../../server/store/createStore.ts'
import { startFaultProxy } from '../support/faultProxy.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { seededJobs } from './support/seededJobs.ts'

const devnet = inject('devnet')
const chain = createChainOracle(createPublicClient({ transport: http(devnet.rpcUrl) }), devnet.deployment)
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

const config: Config = loadConfig({
  argv: [
    '--network', 'devnet',
    '--rpc-url', devnet.rpcUrl,
    ...deploymentArgv(devnet.deployment),
    '--poll-interval', '250',
    '--host', '127.0.0.1',
    '--mcp-port', '0',
    // One test sends 180 requests at once from one address, each on its own connection: what it
    // checks is answers kept apart, not the per-address cap (test/rest/perClientLimits.test.ts).
    '--max-client-connections', '0',
  ],
  env: {},
})

type JsonRpcAnswer = { jsonrpc: string; id: number | string; result?: CallToolResult; error?: { code: number; message: string } }

/** POSTs a body as is and returns the `data` line of each `message` event, exactly as sent. */
async function post(mcpUrl: string, body: unknown): Promise<string[]> {
  const response = await fetch(mcpUrl, { method: 'POST', headers, body: JSON.stringify(body) })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/event-stream')
  const text = await response.text()
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const [event, data, ...rest] = block.split('\n')
      expect(event).toBe('event: message')
      expect(rest).toEqual([])
      return (data ?? '').replace(/^data: /, '')
    })
}

function toolCall(id: number | string, name: string, args?: unknown): unknown {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, ...(args === undefined ? {} : { arguments: args }) } }
}

function textOf(result: CallToolResult | undefined): string {
  const [first] = result?.content ?? []
  if (first?.type !== 'text') throw new Error('expected a text block')
  return first.text
}

describe("hosted MCP server reading the indexer's store in process", () => {
  let indexer: Indexer
  let hosted: StartHostedMcpServerReturnType
  let mcpUrl: string

  beforeAll(async () => {
    indexer = startIndexer(config, { store: createStore({ pollIntervalMs: config.pollIntervalMs, chainId: config.chainId, network: config.network }) })
    await indexer.start()
    hosted = await startHostedMcpServer(config, { store: indexer.store, log: () => {} })
    mcpUrl = `${hosted.url}/mcp`
  })

  afterAll(async () => {
    await hosted?.close()
    await indexer?.stop()
  })

  test('the official client: what the chain holds', async () => {
    const client = new Client({ name: 'in-process-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)))
    try {
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toEqual(['list_services', 'get_service', 'get_service_tee', 'get_job', 'verify_attestation'])
      const list = (await client.callTool({ name: 'list_services' })) as CallToolResult
      expect(ListServicesResultSchema.parse(list.structuredContent)).toEqual({
        network: 'devnet',
        chainId: 31337,
        count: (await chain.listServices()).length,
        services: await chain.listServices(),
      })
      const job = (await client.callTool({ name: 'get_job', arguments: { jobId: seededJobs.settled } })) as CallToolResult
      expect(JSON.parse(textOf(job))).toEqual(job.structuredContent)
      expect(JobSchema.parse(job.structuredContent)).toEqual(await chain.getJob({ jobId: BigInt(seededJobs.settled) }))
      expect(job.structuredContent).not.toHaveProperty('events')
      const unknown = (await client.callTool({ name: 'get_job', arguments: { jobId: '999999' } })) as CallToolResult
      expect(unknown.isError).toBe(true)
      expect(textOf(unknown)).toBe('Job "999999" could not be found.')
    } finally {
      await client.close()
    }
  })

  // A lone tools/call and the same call inside a batch go through the same SDK transport and
  // server: both must send the same bytes.
  test.each([
    ['get_job, settled', toolCall(5, 'get_job', { jobId: seededJobs.settled })],
    ['get_job, pending', toolCall(5, 'get_job', { jobId: seededJobs.pending })],
    ['get_job, unknown id', toolCall('a', 'get_job', { jobId: '424242' })],
    ['get_job, bad argument', toolCall(5, 'get_job', { jobId: '01' })],
    ['get_job, no arguments', toolCall(5, 'get_job')],
    ['list_services', toolCall(0, 'list_services', {})],
    ['get_service', toolCall(5, 'get_service', { serviceId: '2' })],
    ['verify_attestation', toolCall(5, 'verify_attestation', { jobId: seededJobs.settled })],
    ['an unknown tool', toolCall(5, 'run', { serviceId: '1', prompt: 'hi' })],
    ['params without a name', { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { arguments: {} } }],
  ])('%s: the same answer alone and in a batch', async (_, message) => {
    const [alone] = await post(mcpUrl, message)
    const batched = await post(mcpUrl, [message])
    expect(batched).toEqual([alone])
    const answer = JSON.parse(alone ?? '') as JsonRpcAnswer
    expect(answer.id).toBe((message as { id: unknown }).id)
  })

  test('concurrent clients whose request ids collide each get their own answers', async () => {
    const jobIds = Array.from({ length: 12 }, (_, index) => String(index + 1))
    const clients = await Promise.all(
      jobIds.slice(0, 4).map(async () => {
        const client = new Client({ name: 'concurrent-test', version: '1.0.0' })
        await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)))
        return client
      }),
    )
    try {
      const expected = new Map(
        await Promise.all(jobIds.map(async (jobId) => [jobId, await chain.getJob({ jobId: BigInt(jobId) })] as const)),
      )
      const rounds = Array.from({ length: 5 }, () => jobIds).flat()
      // Official clients (ids 0, 1, 2... in each), raw lone calls and raw batches, all with id 1.
      const answers = await Promise.all([
        ...rounds.map(async (jobId, index) => {
          const client = clients[index % clients.length] as Client
          const result = (await client.callTool({ name: 'get_job', arguments: { jobId } })) as CallToolResult
          return [jobId, result.structuredContent] as const
        }),
        ...rounds.map(async (jobId) => {
          const [data] = await post(mcpUrl, toolCall(1, 'get_job', { jobId }))
          return [jobId, (JSON.parse(data ?? '') as JsonRpcAnswer).result?.structuredContent] as const
        }),
        ...rounds.map(async (jobId) => {
          const [data] = await post(mcpUrl, [toolCall(1, 'get_job', { jobId })])
          return [jobId, (JSON.parse(data ?? '') as JsonRpcAnswer).result?.structuredContent] as const
        }),
      ])
      expect(answers).toHaveLength(rounds.length * 3)
      for (const [jobId, structured] of answers) expect(structured).toEqual(expected.get(jobId))
    } finally {
      await Promise.all(clients.map((client) => client.close()))
    }
  })
})

describe('hosted MCP server over a hand-filled store', () => {
  test('list_services answers the store as it is now: a service added or changed shows at once', async () => {
    const [first, second] = await chain.listServices()
    if (first === undefined || second === undefined) throw new Error('the seeded devnet has at least two services')
    const store = createStore({ pollIntervalMs: 1_000, chainId: 31337, network: 'devnet' })
    store.putService({ serviceId: 1n, service: first })
    const hosted = await startHostedMcpServer(config, { store, log: () => {} })
    const listed = async (): Promise<unknown> => {
      const [data] = await post(`${hosted.url}/mcp`, toolCall(1, 'list_services', {}))
      return (JSON.parse(data ?? '') as JsonRpcAnswer).result?.structuredContent
    }
    try {
      expect(await listed()).toEqual({ network: 'devnet', chainId: 31337, count: 1, services: [first] })
      expect(await listed()).toEqual({ network: 'devnet', chainId: 31337, count: 1, services: [first] })
      store.putService({ serviceId: 2n, service: second })
      expect(await listed()).toEqual({ network: 'devnet', chainId: 31337, count: 2, services: [first, second] })
      const delisted = { ...second, active: false }
      store.putService({ serviceId: 2n, service: delisted })
      expect(await listed()).toEqual({ network: 'devnet', chainId: 31337, count: 2, services: [first, delisted] })
    } finally {
      await hosted.close()
    }
  })

  test('a malformed record: the output schema still refuses it, every time, and a valid record still passes', async () => {
    const valid = await chain.getJob({ jobId: BigInt(seededJobs.settled) })
    const store = createStore({ pollIntervalMs: 1_000, chainId: 31337, network: 'devnet' })
    store.putJob({ jobId: 1n, job: valid })
    // Lower-cased: not the EIP-55 form the schema requires.
    store.putJob({ jobId: 2n, job: { ...valid, jobId: '2', buyer: valid.buyer.toLowerCase() as typeof valid.buyer } })
    const hosted = await startHostedMcpServer(config, { store, log: () => {} })
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const [good] = await post(`${hosted.url}/mcp`, toolCall(1, 'get_job', { jobId: '1' }))
        expect((JSON.parse(good ?? '') as JsonRpcAnswer).result?.structuredContent).toEqual(valid)
        const [bad] = await post(`${hosted.url}/mcp`, toolCall(1, 'get_job', { jobId: '2' }))
        const { result } = JSON.parse(bad ?? '') as JsonRpcAnswer
        expect(result?.isError).toBe(true)
        expect(textOf(result)).toBe(
          'MCP error -32602: Output validation error: Invalid structured content for tool get_job: Expected an EIP-55 checksummed address. at buyer',
        )
      }
    } finally {
      await hosted.close()
    }
  })
})

describe('hosted MCP server whose chain answers slowly', () => {
  test('keep-alive comments open the event stream until the answer, alone and in a batch', async () => {
    // Every RPC request held 300 ms: verify_attestation reads the chain several times.
    const proxy = await startFaultProxy({ target: devnet.rpcUrl, faultRate: 1, kinds: ['delay'], delayMs: 300 })
    const hosted = await startHostedMcpServer({ ...config, rpcUrl: proxy.url, mcpSource: 'chain' }, { log: () => {}, keepAliveMs: 100 })
    try {
      const call = toolCall(3, 'verify_attestation', { jobId: seededJobs.settled })
      for (const body of [call, [call]]) {
        const response = await fetch(`${hosted.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) })
        expect(response.status).toBe(200)
        expect(response.headers.get('content-type')).toBe('text/event-stream')
        const blocks = (await response.text()).split('\n\n').filter((block) => block !== '')
        const last = blocks.pop() ?? ''
        expect(blocks.length).toBeGreaterThan(0)
        for (const block of blocks) expect(block).toBe(': keepalive')
        expect(last.startsWith('event: message\ndata: ')).toBe(true)
        const answer = JSON.parse(last.slice('event: message\ndata: '.length)) as JsonRpcAnswer
        expect(answer.id).toBe(3)
        expect(answer.result?.structuredContent).toMatchObject({ jobId: seededJobs.settled, ok: true })
      }
    } finally {
      await hosted.close()
      await proxy.stop()
    }
  })
})
