import { existsSync } from 'node:fs'
import { Agent, request, type IncomingHttpHeaders } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { sendFromOneAddress } from '../support/sendFromOneAddress.ts'
import { projectRoot, spawnEntryPoint, type SpawnedEntryPoint } from '../rest/spawnEntryPoint.ts'

// The hosted MCP server apart from the indexer, as docs/operations.md deploys it: `npm run serve`
// trusting the MCP server's address (--trust-proxy 127.0.0.1) and `npm run mcp:hosted
// --indexer-url`, both at their default per-client limit (1200 requests a minute). The indexer must
// count each MCP caller, not the MCP server: callers together far past 1200, each under it, are all
// answered; one caller past its own limit meets the MCP server's 429, and only it.

const devnet = inject('devnet')
const defaultRateLimit = 1_200
const callers = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']
const callsEach = 400
const flooder = '127.0.0.6'

let serve: SpawnedEntryPoint
let hosted: SpawnedEntryPoint
let mcpPort: number

beforeAll(async () => {
  for (const entry of ['dist/app/serve.js', 'dist/app/mcp-hosted.js']) {
    expect(existsSync(join(projectRoot, entry)), 'run `npx tsup --env.only app`').toBe(true)
  }
  const [restPort, port] = await Promise.all([getFreePort(), getFreePort()])
  mcpPort = port
  const network = ['--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(devnet.deployment)]
  serve = spawnEntryPoint(['dist/app/serve.js', ...network, '--port', String(restPort), '--trust-proxy', '127.0.0.1'])
  hosted = spawnEntryPoint(['dist/app/mcp-hosted.js', ...network, '--mcp-port', String(mcpPort), '--indexer-url', `http://127.0.0.1:${restPort}`])
  await Promise.all([serve.waitFor(/serving on http:\/\/127\.0\.0\.1:\d+/), hosted.waitFor(/hosted mcp started on/)])
  await untilReady(`http://127.0.0.1:${restPort}/readyz`)
})

/** Until the indexer has back-filled: before, the jobs the calls ask for are not in it yet. */
async function untilReady(url: string): Promise<void> {
  const deadline = Date.now() + 120_000
  while ((await fetch(url)).status !== 200) {
    if (Date.now() > deadline) throw new Error(`${url} was not ready in 120 s`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

afterAll(async () => {
  expect(await hosted.stop()).toBe(0)
  expect(await serve.stop()).toBe(0)
})

type Answer = { status: number; headers: IncomingHttpHeaders; body: string }

const getJobCall = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_job', arguments: { jobId: '1' } } })

function callGetJob({ localAddress, agent }: { localAddress: string; agent: Agent }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
    const sent = request({ host: '127.0.0.1', port: mcpPort, path: '/mcp', method: 'POST', headers, localAddress, agent }, (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
    })
    sent.on('error', reject)
    sent.end(getJobCall)
  })
}

/** `count` get_job calls from one address over a few keep-alive connections. */
function callMany({ localAddress, count }: { localAddress: string; count: number }): Promise<Answer[]> {
  return sendFromOneAddress((agent) => callGetJob({ localAddress, agent }), { count, inFlight: 8 })
}

/** The tool result of a Streamable HTTP answer (one SSE `message` event, or a JSON body). */
function toolResultOf({ body }: Answer): { isError?: boolean; content: { text: string }[] } {
  const json = body.startsWith('{') ? body : body.split('\n').find((line) => line.startsWith('data: '))?.slice('data: '.length)
  return (JSON.parse(json ?? 'null') as { result: { isError?: boolean; content: { text: string }[] } }).result
}

test('default: callers past the indexer\'s per-client limit together, each under its own, are all answered', async () => {
  const answers = (await Promise.all(callers.map((localAddress) => callMany({ localAddress, count: callsEach })))).flat()
  expect(answers).toHaveLength(callers.length * callsEach)
  expect(callers.length * callsEach).toBeGreaterThan(defaultRateLimit)
  const failed = answers.filter((answer) => answer.status !== 200 || toolResultOf(answer).isError === true)
  expect(failed.slice(0, 3).map(({ status, body }) => `${status} ${body.slice(0, 300)}`)).toEqual([])
  expect(JSON.parse(toolResultOf(answers[0]!).content[0]!.text)).toMatchObject({ jobId: '1' })
})

test('a caller past its own limit meets the MCP server\'s 429, once, while another caller is served', async () => {
  const [flood, neighbour] = await Promise.all([
    callMany({ localAddress: flooder, count: defaultRateLimit + 20 }),
    callMany({ localAddress: '127.0.0.7', count: 50 }),
  ])
  const refused = flood.filter(({ status }) => status === 429)
  expect(refused).toHaveLength(20)
  expect(JSON.parse(refused[0]!.body)).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(/^Too many requests from this address: at most 1200/) } })
  expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1)
  // What the MCP server let through, the indexer answered: the caller was not refused a second time there.
  const answered = flood.filter(({ status }) => status === 200)
  expect(answered).toHaveLength(defaultRateLimit)
  expect(answered.filter((answer) => toolResultOf(answer).isError === true)).toEqual([])
  expect(neighbour.map((answer) => answer.status === 200 && toolResultOf(answer).isError !== true)).toEqual(Array(50).fill(true))
})
