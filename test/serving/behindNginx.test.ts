import { execFile } from 'node:child_process'
import type { LookupFunction } from 'node:net'
import { promisify } from 'node:util'
import { Agent, setGlobalDispatcher } from 'undici'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { createMarketClient } from '../../client/createMarketClient.ts'
import { loadConfig } from '../../config/loadConfig.ts'
import { startHostedMcpServer, type StartHostedMcpServerReturnType } from '../../mcp/hosted/startHostedMcpServer.ts'
import { startRestIndexer, type StartRestIndexerReturnType } from '../../server/startRestIndexer.ts'
import { createLogger } from '../../platform/logging/createLogger.ts'
import { browserArgs, launchBrowser, type LaunchedBrowser } from '../explorer/support/launchBrowser.ts'
import { seededJobs } from '../mcp/support/seededJobs.ts'
import { callGetJob } from './support/callGetJob.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { makeTestCertificates } from '../support/makeTestCertificates.ts'
import { startNginx, type StartNginxReturnType } from './support/startNginx.ts'

const devnet = inject('devnet')
const run = promisify(execFile)
const certificates = makeTestCertificates()
/**
 * nginx reaches the servers from this address, the only one they trust; the tests' own requests
 * come from others. Each file that binds loopback aliases has its own (files run side by side):
 * perClientLimits 127.0.0.2–4, this one 127.0.0.5–6, nginxLimits 127.0.0.7, eventStreamServing 127.0.0.8–10.
 */
const proxyAddress = '127.0.0.5'
/** Where a client of the proxy connects from in the X-Forwarded-For checks. */
const clientAddress = '127.0.0.6'
const forgedAddress = '203.0.113.9'

let nginx: StartNginxReturnType
let rest: StartRestIndexerReturnType
let mcp: StartHostedMcpServerReturnType
let httpsPort: number
let api: string
let mcpUrl: string
const accessLog: { msg: string; protocol?: string; req?: { url: string; host: string; remoteAddress: string } }[] = []

/** curl through the proxy: the public names resolve to it, the test CA is the only one trusted. */
function curlArgs(): string[] {
  return ['-sS', '--max-time', '10', '--cacert', certificates.caPath, '--resolve', `api.example.org:${httpsPort}:127.0.0.1`, '--resolve', `mcp.example.org:${httpsPort}:127.0.0.1`]
}

function loggedRequest(url: string) {
  const line = accessLog.find((entry) => entry.msg === 'incoming request' && entry.req?.url === url)
  return line === undefined ? undefined : { ...line.req, protocol: line.protocol }
}

beforeAll(async () => {
  // Node's fetch (typed client, MCP SDK) resolves the public names to the proxy and trusts only the test CA.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all === true) (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: '127.0.0.1', family: 4 }])
    else callback(null, '127.0.0.1', 4)
  }
  setGlobalDispatcher(new Agent({ connect: { ca: certificates.ca, lookup } }))
  const certificate = certificates.issue('proxy', ['api.example.org', 'mcp.example.org'])
  const config = loadConfig({
    argv: [
      '--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(devnet.deployment),
      '--poll-interval', '250', '--host', '127.0.0.1', '--port', '0', '--mcp-port', '0',
      '--trust-proxy', proxyAddress, '--allowed-hosts', 'mcp.example.org', '--access-log', 'on',
    ],
    env: {},
  })
  const logger = createLogger({ level: 'info', pretty: false, stream: { write: (line: string) => void accessLog.push(JSON.parse(line)) } })
  rest = await startRestIndexer(config, { mode: 'production', logger })
  mcp = await startHostedMcpServer(config, { store: rest.store, log: () => undefined })
  httpsPort = await getFreePort()
  nginx = await startNginx({
    httpsPort,
    httpPort: await getFreePort(),
    restPort: Number(new URL(rest.url).port),
    mcpPort: Number(new URL(mcp.url).port),
    certPath: certificate.certPath,
    keyPath: certificate.keyPath,
    proxyBind: proxyAddress,
  })
  api = `https://api.example.org:${httpsPort}`
  mcpUrl = `https://mcp.example.org:${httpsPort}/mcp`
  while ((await fetch(`${api}/readyz`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
})

afterAll(async () => {
  await nginx?.stop()
  await mcp?.close()
  await rest?.stop()
  certificates.remove()
})

test('default: the typed client reads a job through the proxy', async () => {
  const client = createMarketClient({ baseUrl: api })
  const answer = await client.jobs.getJob({ params: { id: seededJobs.settled } })
  expect(answer.status).toBe(200)
  expect(answer.status === 200 && answer.body.jobId).toBe(seededJobs.settled)
})

test('curl --cacert reads a job through the proxy over HTTP/2 and HTTP/1.1', async () => {
  for (const version of ['--http2', '--http1.1']) {
    const { stdout } = await run('curl', [...curlArgs(), version, '-w', '\n%{http_version}', `${api}/v1/jobs/${seededJobs.settled}`])
    const [body, negotiated] = stdout.split('\n')
    expect(JSON.parse(body!)).toMatchObject({ jobId: seededJobs.settled })
    expect(negotiated).toBe(version === '--http2' ? '2' : '1.1')
  }
})

test('the official MCP client calls get_job through the proxy', async () => {
  const result = await callGetJob(mcpUrl, { jobId: seededJobs.settled, clientName: 'nginx-test' })
  expect(result.isError ?? false).toBe(false)
  expect(result.structuredContent).toMatchObject({ jobId: seededJobs.settled })
})

test('the explorer works in chromium through the proxy, every request to the public origin', async () => {
  let browser: LaunchedBrowser | undefined
  try {
    browser = await launchBrowser({
      args: [...browserArgs, `--ignore-certificate-errors-spki-list=${certificates.caSpkiHash}`, '--host-resolver-rules=MAP *.example.org 127.0.0.1'],
    })
    const page = await browser.context.newPage()
    await page.goto(`${api}/jobs/${seededJobs.settled}`)
    await page.getByText('Settled').first().waitFor()
    expect(browser.requests.length).toBeGreaterThan(1)
    expect(browser.requests.filter((url) => !url.startsWith(`${api}/`))).toEqual([])
  } finally {
    await browser?.close()
  }
})

test("/openapi.json's server resolves to the public origin", async () => {
  const document = (await (await fetch(`${api}/openapi.json`)).json()) as { servers: { url: string }[] }
  expect(new URL(document.servers[0]!.url, `${api}/openapi.json`).origin).toBe(api)
})

describe('X-Forwarded-* are believed from the proxy only', () => {
  test('through the proxy, the access log has the client, the public host and scheme, not what the client forged', async () => {
    const path = `/v1/jobs/${seededJobs.settled}?from=proxy`
    await run('curl', [...curlArgs(), '--interface', clientAddress, '-H', `X-Forwarded-For: ${forgedAddress}`, `${api}${path}`])
    await expect.poll(() => loggedRequest(path)).toMatchObject({ remoteAddress: clientAddress, host: `api.example.org:${httpsPort}`, protocol: 'https' })
  })

  test('straight to the server, X-Forwarded-For and -Host from anyone else are ignored', async () => {
    const path = `/v1/jobs/${seededJobs.settled}?from=elsewhere`
    await run('curl', ['-sS', '--max-time', '10', '--interface', clientAddress, '-H', `X-Forwarded-For: ${forgedAddress}`, '-H', 'X-Forwarded-Host: evil.example', '-H', 'X-Forwarded-Proto: https', `${rest.url}${path}`])
    await expect.poll(() => loggedRequest(path)).toMatchObject({ remoteAddress: clientAddress, host: new URL(rest.url).host, protocol: 'http' })
  })
})

describe("the hosted MCP server's Host and Origin checks behind the proxy", () => {
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
  const post = (headers: string[], url = mcpUrl) =>
    run('curl', [...curlArgs(), '-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', '-H', 'Content-Type: application/json', '-H', 'Accept: application/json, text/event-stream', ...headers.flatMap((header) => ['-H', header]), '--data', list, url])

  test('the public name is accepted', async () => {
    expect((await post([])).stdout).toBe('200')
  })

  test('a foreign Origin is 403', async () => {
    const { stdout } = await run('curl', [...curlArgs(), '-X', 'POST', '-H', 'Content-Type: application/json', '-H', 'Accept: application/json, text/event-stream', '-H', 'Origin: https://evil.example', '--data', list, mcpUrl])
    expect(JSON.parse(stdout)).toMatchObject({ error: { message: 'Invalid Origin header: https://evil.example' } })
    expect((await post(['Origin: https://evil.example'])).stdout).toBe('403')
  })

  test('a foreign Host never reaches a server (nginx: 421), and one sent straight to the server is 403', async () => {
    expect((await post(['Host: evil.example'])).stdout).toBe('421')
    const { stdout } = await run('curl', ['-sS', '--max-time', '10', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', '-H', 'Host: evil.example', '-H', 'X-Forwarded-Host: mcp.example.org', '-H', 'Content-Type: application/json', '-H', 'Accept: application/json, text/event-stream', '--data', list, `${mcp.url}/mcp`])
    expect(stdout).toBe('403')
  })
})
