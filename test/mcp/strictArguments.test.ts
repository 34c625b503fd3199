import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { loadConfig } from '../../config/loadConfig.ts'
import { startHostedMcpServer, type StartHostedMcpServerReturnType } from '../../mcp/hosted/startHostedMcpServer.ts'
import type { Indexer } from '../../server/indexer/createIndexer.ts'
import { startIndexer } from '../../server/indexer/startIndexer.ts'
import { createStore } from '../../server/store/createStore.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'

// An argument a tool does not take is an invalid-params error naming the allowed ones, never
// ignored: `list_services {"activeOnly": true}` used to answer every service.

const devnet = inject('devnet')
let indexer: Indexer
let hosted: StartHostedMcpServerReturnType
let client: Client

beforeAll(async () => {
  const config = loadConfig({
    argv: ['--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(devnet.deployment), '--poll-interval', '250', '--host', '127.0.0.1', '--mcp-port', '0'],
    env: {},
  })
  indexer = startIndexer(config, { store: createStore({ pollIntervalMs: config.pollIntervalMs, chainId: config.chainId, network: config.network }) })
  await indexer.start()
  hosted = await startHostedMcpServer(config, { store: indexer.store, log: () => {} })
  client = new Client({ name: 'strict-arguments-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${hosted.url}/mcp`)))
})

afterAll(async () => {
  await client?.close()
  await hosted?.close()
  await indexer?.stop()
})

function textOf(result: CallToolResult): string {
  const [first] = result.content
  if (first?.type !== 'text') throw new Error('expected a text block')
  return first.text
}

test('default: every listed input schema refuses other properties', async () => {
  const { tools } = await client.listTools()
  for (const tool of tools) expect(tool.inputSchema, tool.name).toMatchObject({ additionalProperties: false })
})

test.each([
  ['list_services', { activeOnly: true }, 'Unknown argument "activeOnly". This tool takes no arguments.'],
  ['get_service', { serviceId: '1', verbose: true }, 'Unknown argument "verbose". Allowed arguments: serviceId.'],
  ['get_job', { jobId: '1', job_id: '1', events: true }, 'Unknown arguments "job_id", "events". Allowed arguments: jobId.'],
  ['verify_attestation', { jobID: '1' }, 'Unknown argument "jobID". Allowed arguments: jobId.'],
])('%s %j: an invalid-params error naming the allowed arguments', async (name, args, expected) => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  expect(result.isError).toBe(true)
  expect(textOf(result)).toContain(`MCP error -32602: Input validation error: Invalid arguments for tool ${name}:`)
  expect(textOf(result)).toContain(expected)
})

test('the same tools answer when called with what they take', async () => {
  const list = (await client.callTool({ name: 'list_services', arguments: {} })) as CallToolResult
  expect(list.isError).toBeFalsy()
  const job = (await client.callTool({ name: 'get_job', arguments: { jobId: '1' } })) as CallToolResult
  expect(job.isError).toBeFalsy()
})
