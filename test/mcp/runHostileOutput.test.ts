import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { once } from 'node:events'
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { createPublicClient, http } from 'viem'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { JobSchema } from '../../contract/job.ts'
import { RunResultSchema, type RunResult } from '../../contract/mcp.ts'
import { seedAccounts } from '../../devnet/seed/seedAccounts.ts'
import type { StartReferenceSellerReturnType } from '../../devnet/seller/startReferenceSeller.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { startSeededSeller } from '../support/startSeededSeller.ts'
import { accountKey } from './support/accountKey.ts'
import { connectStdioMcp, textOf, type StdioMcp } from './support/connectStdioMcp.ts'
import { devnetEnv } from './support/devnetEnv.ts'
import { readPeakResidentBytes } from './support/readPeakResidentBytes.ts'
import { startHostileOutputServer, type HostileOutputServer } from './support/startHostileOutputServer.ts'

/**
 * `run` against a seller whose output endpoint is hostile, through the official MCP client over
 * stdio against the real bin, while the reference seller settles every job on chain: the job is
 * reported in every case, and the endpoint can neither redirect the buyer's signed request, nor
 * blow up the server's memory, nor send a request signed for one seller to another's endpoint.
 */

/** Seed seller #1's service, which the reference seller settles. */
const servedServiceId = '1'
const referenceSeller = seedAccounts.sellers[0].address
const otherSeller = seedAccounts.sellers[1].address
const peakLimitBytes = 300 * 1_024 * 1_024
/** Each case pays and waits for settlement on a machine shared with other work: generous, not a speed target. */
const timeout = 180_000

let devnet: StartDevnetReturnType
let seller: StartReferenceSellerReturnType
let hostile: HostileOutputServer
const servers: StdioMcp[] = []

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: true })
  seller = await startSeededSeller(devnet)
  hostile = await startHostileOutputServer()
})

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await hostile?.close()
  await seller?.stop()
  await devnet?.stop()
})

async function startServer(key: number, env: Record<string, string>): Promise<StdioMcp & { pid: number }> {
  const mcp = await connectStdioMcp({
    env: devnetEnv(devnet, { MARKET_PRIVATE_KEY: accountKey(key), MARKET_POLL_INTERVAL_MS: '100', ...env }),
  })
  servers.push(mcp)
  const pid = (mcp.client.transport as StdioClientTransport | undefined)?.pid
  if (typeof pid !== 'number') throw new Error('the stdio transport has no child process id')
  return { ...mcp, pid }
}

async function nextJobId(): Promise<bigint> {
  const client = createPublicClient({ chain: hardhat, transport: http(devnet.rpcUrl) })
  return client.readContract({ address: devnet.deployment.escrow, abi: escrowAbi, functionName: 'nextJobId' })
}

/** Runs once and checks the paid job is reported in full (job id, verified attestation, transaction), with a note instead of the output. */
async function runReported(mcp: StdioMcp, prompt: string): Promise<RunResult & { seconds: number }> {
  const expectedJobId = await nextJobId()
  const started = performance.now()
  const result = await mcp.call('run', { serviceId: servedServiceId, prompt, timeoutSec: 60 })
  const seconds = (performance.now() - started) / 1_000
  expect(result.isError ?? false, textOf(result)).toBe(false)
  const response = RunResultSchema.parse(JSON.parse(textOf(result)))
  expect(response).toMatchObject({ jobId: expectedJobId.toString(), verified: { ok: true } })
  expect(response.txHashes.createJob).toMatch(/^0x[0-9a-f]{64}$/)
  const job = JobSchema.parse(JSON.parse(textOf(await mcp.call('get_job', { jobId: response.jobId }))))
  expect(job.stateName).toBe('Settled')
  return { ...response, seconds }
}

describe('one server, one hostile endpoint bound to the job seller', () => {
  let mcp: StdioMcp & { pid: number }
  const outputPath = () => `${hostile.url}/outputs/{jobId}`

  beforeAll(async () => {
    mcp = await startServer(21, { MARKET_OUTPUT_URL: outputPath(), MARKET_OUTPUT_SELLER: referenceSeller })
  })

  test('a 302 to another local address is not followed: the signed request reaches no one else', async () => {
    const victimRequests: IncomingMessage[] = []
    const victim = createServer((request, response) => {
      victimRequests.push(request)
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"output":"stolen"}')
    })
    victim.listen(0, '127.0.0.1')
    await once(victim, 'listening')
    const location = `http://127.0.0.1:${(victim.address() as AddressInfo).port}/outputs/steal`
    hostile.behave({ kind: 'redirect', location })
    const before = hostile.requests.length
    try {
      const response = await runReported(mcp, 'Redirect me.')
      expect(response).not.toHaveProperty('output')
      expect(response.outputNote).toBe(
        `The seller's output endpoint ${hostile.url}/outputs/${response.jobId} answered a redirect (302) to ${JSON.stringify(location)}; not followed.`,
      )
      expect(hostile.requests.length).toBe(before + 1)
      expect(victimRequests).toHaveLength(0)
    } finally {
      victim.closeAllConnections()
      victim.close()
    }
  }, timeout)

  test('a 400 MB JSON body: reading stops at MARKET_MAX_OUTPUT_BYTES (default 4 MiB)', async () => {
    const bytes = 400 * 1_024 * 1_024
    hostile.behave({ kind: 'huge', bytes })
    const response = await runReported(mcp, 'Answer at length.')
    const peak = await readPeakResidentBytes(mcp.pid)
    console.info(
      `400 MB body: run answered in ${response.seconds.toFixed(2)} s; the endpoint wrote ${(hostile.lastBytesWritten() / 1_048_576).toFixed(1)} MiB; server VmHWM ${(peak / 1_048_576).toFixed(1)} MiB`,
    )
    expect(response).not.toHaveProperty('output')
    expect(response.outputNote).toBe(
      `The seller's output endpoint ${hostile.url}/outputs/${response.jobId} sent more than 4194304 bytes (MARKET_MAX_OUTPUT_BYTES); reading stopped there.`,
    )
    expect(hostile.lastBytesWritten()).toBeLessThan(bytes / 4)
    expect(peak).toBeLessThan(peakLimitBytes)
  }, timeout)

  test('JSON nested 100,000 levels: refused without parsing it', async () => {
    hostile.behave({ kind: 'nested', depth: 100_000 })
    const response = await runReported(mcp, 'Nest it.')
    expect(response).not.toHaveProperty('output')
    expect(response.outputNote).toBe(
      `The seller's output endpoint ${hostile.url}/outputs/${response.jobId} answered JSON nested deeper than 32 levels; it was not parsed.`,
    )
  }, timeout)

  test('the server keeps answering, and its peak resident memory stayed under 300 MB', async () => {
    const services = await mcp.call('list_services', {})
    expect(services.isError ?? false, textOf(services)).toBe(false)
    const peak = await readPeakResidentBytes(mcp.pid)
    console.info(`server VmHWM after the three hostile answers: ${(peak / 1_048_576).toFixed(1)} MiB`)
    expect(peak).toBeLessThan(peakLimitBytes)
  }, timeout)
})

describe('output endpoints per seller', () => {
  test("a job whose seller has no endpoint gets a note; another seller's endpoint receives nothing", async () => {
    const before = hostile.requests.length
    const mcp = await startServer(22, { MARKET_OUTPUT_URLS: `${otherSeller}=${hostile.url}/outputs/{jobId}` })
    const response = await runReported(mcp, 'Whose endpoint?')
    expect(response).not.toHaveProperty('output')
    expect(response.outputNote).toBe(
      `No output endpoint is configured for the job's seller ${referenceSeller}, so the output was not fetched: a request signed for one seller goes only to that seller's endpoint. Add it to MARKET_OUTPUT_URLS as ${referenceSeller}=<URL with {jobId}>.`,
    )
    expect(hostile.requests.length).toBe(before)
  }, timeout)

  test('MARKET_OUTPUT_URL without MARKET_OUTPUT_SELLER is bound to no seller: a note, no request', async () => {
    const before = hostile.requests.length
    const mcp = await startServer(23, { MARKET_OUTPUT_URL: `${hostile.url}/outputs/{jobId}` })
    const response = await runReported(mcp, 'Unbound.')
    expect(response).not.toHaveProperty('output')
    expect(response.outputNote).toBe(
      `MARKET_OUTPUT_URL is set but MARKET_OUTPUT_SELLER is not, so the output was not fetched: a request signed for one seller goes only to that seller's endpoint. Set MARKET_OUTPUT_SELLER to the seller it serves (here ${referenceSeller}), or use MARKET_OUTPUT_URLS.`,
    )
    expect(hostile.requests.length).toBe(before)
  }, timeout)

  test("the job's seller's own endpoint in MARKET_OUTPUT_URLS serves the output", async () => {
    const mcp = await startServer(24, {
      MARKET_OUTPUT_URLS: `${otherSeller}=${hostile.url}/outputs/{jobId}, ${referenceSeller.toLowerCase()}=${seller.url}/outputs/{jobId}`,
    })
    const result = await mcp.call('run', { serviceId: servedServiceId, prompt: 'Name a prime.', timeoutSec: 60 })
    expect(result.isError ?? false, textOf(result)).toBe(false)
    const response = RunResultSchema.parse(JSON.parse(textOf(result)))
    expect(response.output).toBeTypeOf('string')
    expect(response).not.toHaveProperty('outputNote')
  }, timeout)

  test('a host name that resolves to a loopback address is refused: only a URL naming the address itself may reach it', async () => {
    const before = hostile.requests.length
    const port = new URL(hostile.url).port
    const mcp = await startServer(25, { MARKET_OUTPUT_URLS: `${referenceSeller}=http://localhost:${port}/outputs/{jobId}` })
    const response = await runReported(mcp, 'Rebind.')
    expect(response).not.toHaveProperty('output')
    expect(response.outputNote).toMatch(
      /^The seller's output endpoint http:\/\/localhost:\d+\/outputs\/\d+ was not contacted: "localhost" resolves to (127\.0\.0\.1|::1), a loopback address\. Only a URL that names a non-public address itself \(e\.g\. http:\/\/127\.0\.0\.1:8082\/outputs\/\{jobId\}\) may reach one\.$/,
    )
    expect(hostile.requests.length).toBe(before)
  }, timeout)
})
