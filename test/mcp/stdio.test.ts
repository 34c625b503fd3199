import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { spawn } from 'node:child_process'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { JobSchema } from '../../contract/job.ts'
import { ListServicesResultSchema, VerifyAttestationResultSchema } from '../../contract/mcp.ts'
import { ServiceSchema } from '../../contract/service.ts'
import { createChainOracle } from '../support/createChainOracle.ts'
import { startRestServer, type RestServer } from '../rest/startRestServer.ts'
import { binPath, connectStdioMcp, projectRoot, textOf, type StdioMcp } from './support/connectStdioMcp.ts'
import { devnetEnv } from './support/devnetEnv.ts'
import { seededJobs } from './support/seededJobs.ts'

const devnet = inject('devnet')
const chain = createChainOracle(createPublicClient({ transport: http(devnet.rpcUrl) }), devnet.deployment)

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
}

function responseOf(result: CallToolResult): unknown {
  expect(result.isError ?? false).toBe(false)
  const parsed: unknown = JSON.parse(textOf(result))
  expect(result.structuredContent).toEqual(parsed)
  return parsed
}

describe.each(['chain', 'indexer'] as const)('stdio MCP server reading the %s', (sourceName) => {
  let rest: RestServer | undefined
  let mcp: StdioMcp

  beforeAll(async () => {
    rest = sourceName === 'indexer' ? await startRestServer() : undefined
    mcp = await connectStdioMcp({ env: devnetEnv(devnet, { INDEXER_URL: rest?.baseUrl ?? '' }) })
  })

  afterAll(async () => {
    await mcp?.close()
    await rest?.stop()
  })

  test('default: six tools, run among them and marked as spending', async () => {
    const { tools } = await mcp.client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['get_job', 'get_service', 'get_service_tee', 'list_services', 'run', 'verify_attestation'],
    )
    const run = tools.find((tool) => tool.name === 'run')
    expect(run?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true })
    expect(run?.inputSchema.required).toEqual(['serviceId', 'prompt'])
    await waitFor(() => mcp.logMessages().includes('network devnet'))
    expect(mcp.logMessages()).toContain('network devnet')
  })

  test('list_services', async () => {
    const result = ListServicesResultSchema.parse(responseOf(await mcp.call('list_services')))
    expect(result).toMatchObject({ network: 'devnet', chainId: 31337, count: result.services.length })
    expect(result.services).toEqual(await chain.listServices())
  })

  test('get_service', async () => {
    const result = ServiceSchema.parse(responseOf(await mcp.call('get_service', { serviceId: '3' })))
    expect(result).toEqual(await chain.getService({ serviceId: 3n }))
  })

  test('get_job', async () => {
    const result = JobSchema.parse(responseOf(await mcp.call('get_job', { jobId: seededJobs.settled })))
    expect(result).toEqual(await chain.getJob({ jobId: BigInt(seededJobs.settled) }))
  })

  test('verify_attestation', async () => {
    const result = VerifyAttestationResultSchema.parse(
      responseOf(await mcp.call('verify_attestation', { jobId: seededJobs.settled })),
    )
    expect(result.ok).toBe(true)
    expect(result.recoveredSigner).toBe(result.expectedSigner)
  })

  test.each([
    ['get_service', { serviceId: 'abc' }, 'Invalid arguments for tool get_service'],
    ['get_service', { serviceId: '0' }, 'Invalid arguments for tool get_service'],
    ['get_job', {}, 'Invalid arguments for tool get_job'],
    ['get_service', { serviceId: '4242' }, 'Service "4242" could not be found.'],
    ['get_job', { jobId: '4242' }, 'Job "4242" could not be found.'],
    ['verify_attestation', { jobId: '4242' }, 'Job "4242" could not be found.'],
    ['verify_attestation', { jobId: seededJobs.pending }, 'has no attestation yet: it is Pending (state 0)'],
  ])('%s %j: a clear error, and the server keeps serving', async (name, args, message) => {
    const result = await mcp.call(name, args)
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain(message)
    expect((await mcp.call('get_service', { serviceId: '1' })).isError ?? false).toBe(false)
  })
})

describe('stdio MCP server process', () => {
  test('stdout carries only JSON-RPC messages; logs go to stderr', async () => {
    const child = spawn(process.execPath, [binPath], {
      cwd: projectRoot,
      env: devnetEnv(devnet),
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`)
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    })
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_service', arguments: { serviceId: '1' } } })
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_job', arguments: { jobId: 'abc' } } })
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'run', arguments: { serviceId: '1', prompt: 'hi' } } })
    while (stdout.split('\n').filter((line) => line.trim() !== '').length < 4) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    child.stdin.end()
    await exited

    const lines = stdout.split('\n').filter((line) => line.trim() !== '')
    // Requests are handled concurrently: answers come in completion order.
    const messages = lines
      .map((line) => JSON.parse(line) as { jsonrpc: string; id: number; result?: CallToolResult })
      .sort((a, b) => a.id - b.id)
    expect(messages.map((message) => [message.jsonrpc, message.id])).toEqual([
      ['2.0', 1],
      ['2.0', 2],
      ['2.0', 3],
      ['2.0', 4],
    ])
    expect(messages[2]?.result?.isError).toBe(true)
    expect(textOf(messages[3]!.result!)).toContain('MARKET_PRIVATE_KEY is not set')
    expect(stderr).toContain('tee-market-mcp (stdio, 6 tools)')
  })

  test('with no arguments and no network settings it serves 0g-mainnet', async () => {
    const env = Object.fromEntries(
      Object.entries(devnetEnv(devnet)).filter(
        ([key]) =>
          !['MARKET_NETWORK', 'RPC_URL', 'CHAIN_ID', 'START_BLOCK'].includes(key) && !key.endsWith('_ADDRESS'),
      ),
    )
    // No internet here: point the preset's RPC at a closed port so calls fail fast.
    const mcp = await connectStdioMcp({ env: { ...env, RPC_URL: 'http://127.0.0.1:9' } })
    try {
      await waitFor(() => mcp.logMessages().includes('network 0g-mainnet'))
      expect(mcp.logMessages()).toContain('network 0g-mainnet')
      const { tools } = await mcp.client.listTools()
      expect(tools).toHaveLength(6)
      const result = await mcp.call('list_services')
      expect(result.isError).toBe(true)
      expect(textOf(result)).toBe(
        'Tool "list_services" could not complete: the chain or indexer did not answer as expected. Try again shortly.',
      )
    } finally {
      await mcp.close()
    }
  })

  test('a configuration error is reported on stderr and the process exits 1', async () => {
    const child = spawn(process.execPath, [binPath, '--network', 'moon'], {
      cwd: projectRoot,
      env: devnetEnv(devnet),
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toContain('--network must be one of devnet, 0g-mainnet, got "moon"')
  })
})
