import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { createPublicClient, http } from 'viem'
import { afterAll, describe, expect, test } from 'vitest'
import { type Health, HealthSchema } from '../../contract/health.ts'
import { seededJobs } from '../mcp/support/seededJobs.ts'
import { TeeEvidenceSchema, TeeVerdictListSchema, type TeeVerdictList } from '../../contract/tee.ts'
import { DeploymentSchema } from '../../config/deployment.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { randomBytes } from 'node:crypto'
import { type Hex, bytesToHex, hexToBytes } from 'viem'
import { inferenceServingAbi } from '../../chain/abi/inferenceServing.ts'
import { plannedServices } from '../../devnet/seed/marketPlan.ts'
import { seedProviderAddress, serviceSigningAccount } from '../../devnet/seed/seedAccounts.ts'
import { checkTeeEvidence } from '../../tee/checkTeeEvidence.ts'
import { parseAttestationReport } from '../../tee/parseAttestationReport.ts'
import { readCollateralKey } from '../../tee/readCollateralKey.ts'
import { getCollateralForFmspc } from './support/getCollateralForFmspc.ts'
import { gpuNotChecked } from '../tee/support/fixtures.ts'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const directory = mkdtempSync(join(tmpdir(), 'tee-market-start-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
/**
 * The HOME of every process these tests start: `run`'s daily spend ledger lives under
 * `~/.tee-market`, and the tester's own would count every earlier run: the default limit, 0.05 a
 * day, is fifty calls of service 1, and a day of CI on one machine had spent 34 of them.
 */
const home = join(directory, 'home')

/** `npm start` without npm: one process, so a signal reaches the script itself. */
function runStart(args: string[]): { child: ChildProcessWithoutNullStreams; output: () => string; exited: Promise<number | null> } {
  const env = { ...process.env }
  for (const name of ['PORT', 'HOST', 'MCP_PORT', 'SELLER_PORT', 'RPC_URL', 'MARKET_NETWORK', 'DEPLOYMENT_PATH']) delete env[name]
  env.HOME = home
  const child = spawn(process.execPath, ['--import', 'tsx', 'devnet/start.ts', ...args], { cwd: projectRoot, env })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

async function waitForOutput(run: ReturnType<typeof runStart>, pattern: RegExp): Promise<void> {
  while (!pattern.test(run.output())) {
    if (run.child.exitCode !== null) throw new Error(`npm start exited early:\n${run.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Both full starts take one PCCS port, as `npm start` run again does (default 8083): the second
 * start's new TEE root must not meet collateral kept from the first one's (the local server judged
 * service 1 `failed`, and `run` refused it, when it did).
 */
const pccsPort = await getFreePort()

test('default', async () => {
  const [rpcPort, port, mcpPort, sellerPort] = [await getFreePort(), await getFreePort(), await getFreePort(), await getFreePort()]
  const deploymentPath = join(directory, 'deployment.json')
  const startedAt = Date.now() / 1_000
  const run = runStart([
    '--rpc-port', String(rpcPort),
    '--pccs-port', String(pccsPort),
    '--port', String(port),
    '--mcp-port', String(mcpPort),
    '--seller-port', String(sellerPort),
    '--deployment', deploymentPath,
  ])
  try {
    await waitForOutput(run, /Press Ctrl\+C to stop\./)
    const output = run.output()
    const rpcUrl = `http://127.0.0.1:${rpcPort}`
    expect(output).toContain(`RPC URL`)
    expect(output).toContain(rpcUrl)
    expect(output).toMatch(/Seeded market: 3 sellers, 6 services, 36 jobs \(6 Pending, 20 Settled, 4 Expired, 4 Disputed, 2 Slashed\)/)
    expect(output).toMatch(new RegExp(`disputed, dispute failed +jobs ${seededJobs.disputeFailed}\\b`))
    expect(output).toMatch(/MARKET_PRIVATE_KEY=0x[0-9a-f]{64}/)
    expect(output).toMatch(/Ready in \d+\.\d s\./)

    const deployment = DeploymentSchema.parse(JSON.parse(readFileSync(deploymentPath, 'utf8')))
    expect(output).toContain(deployment.registry)
    const chain = createPublicClient({ transport: http(rpcUrl) })
    expect(await chain.getChainId()).toBe(31337)
    // The seeded history lies in the past and the chain's clock is the wall clock: a job created now reads "just now".
    const latest = await chain.getBlock({ blockTag: 'latest' })
    // Between the start and now, however long the start took on this host.
    expect(Number(latest.timestamp)).toBeGreaterThanOrEqual(Math.floor(startedAt))
    expect(Number(latest.timestamp)).toBeLessThanOrEqual(Date.now() / 1_000 + 1)
    const deployBlock = await chain.getBlock({ blockNumber: 1n })
    expect(Number(deployBlock.timestamp)).toBeLessThan(Date.now() / 1_000 - 30 * 60)

    // The components listen where the flags say, and the indexer catches up with the seed.
    expect(output).toContain(`http://127.0.0.1:${port}`)
    // The explorer's URL is the first one printed.
    expect(/https?:\/\/\S+/.exec(output)?.[0]).toBe(`http://127.0.0.1:${port}/`)
    expect(output).toContain(`http://127.0.0.1:${mcpPort}/mcp`)
    let health: Health | undefined
    while (health?.ok !== true) {
      health = HealthSchema.parse(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json())
      if (!health.ok) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(health.counters.jobs).toBe(36)
    // A failed dispute shows in its job's history: the arbiter's DisputeFailed, the job still Disputed.
    const failed = await (await fetch(`http://127.0.0.1:${port}/v1/jobs/${seededJobs.disputeFailed}`)).json()
    expect(failed).toMatchObject({ stateName: 'Disputed' })
    expect((failed as { events: { event: string }[] }).events.map(({ event }) => event).slice(-3)).toEqual([
      'JobDisputed',
      'DisputeOpened',
      'DisputeFailed',
    ])
    const mcpHealth = await (await fetch(`http://127.0.0.1:${mcpPort}/healthz`)).json()
    expect(mcpHealth).toMatchObject({ ok: true, network: 'devnet', chainId: 31337 })

    // The hosted MCP server answers from the indexer's store: the same job as the REST API.
    const mcp = new Client({ name: 'start-test', version: '1.0.0' })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${mcpPort}/mcp`)))
    try {
      const result = await mcp.callTool({ name: 'get_job', arguments: { jobId: '1' } })
      const { events, ...restJob } = (await (await fetch(`http://127.0.0.1:${port}/v1/jobs/1`)).json()) as Record<string, unknown>
      expect(events).toHaveLength(3)
      expect(result.structuredContent).toEqual(restJob)
    } finally {
      await mcp.close()
    }

    // The printed client entries work as pasted: the hosted URL, and the local server (this
    // checkout's built bin, absolute paths) reading the devnet with the funded buyer's key.
    const printed = output.slice(output.indexOf('ready to paste:\n') + 'ready to paste:\n'.length, output.indexOf('\n\nReady in'))
    const { mcpServers } = JSON.parse(printed) as {
      mcpServers: Record<string, { url?: string; command?: string; args?: string[]; env?: Record<string, string> }>
    }
    expect(mcpServers['tee-market-devnet']).toEqual({ url: `http://127.0.0.1:${mcpPort}/mcp` })
    const local = mcpServers['tee-market-devnet-local']!
    expect(local.args?.[0]).toBe(join(projectRoot, 'bin/tee-market-mcp.js'))
    expect(local.env).toMatchObject({ MARKET_NETWORK: 'devnet', RPC_URL: rpcUrl, DEPLOYMENT_PATH: deploymentPath })
    const stdio = new Client({ name: 'start-test', version: '1.0.0' })
    await stdio.connect(new StdioClientTransport({ command: local.command!, args: local.args!, env: { ...local.env!, HOME: home }, cwd: directory }))
    try {
      const result = await stdio.callTool({ name: 'list_services' })
      expect(result.structuredContent).toMatchObject({ network: 'devnet', chainId: 31337, count: 6 })
      await expectSeededVerdicts({ output, restUrl: `http://127.0.0.1:${port}`, mcpUrl: `http://127.0.0.1:${mcpPort}/mcp`, stdio })
    } finally {
      await stdio.close()
    }

    await expectDevnetTee({ output, deployment, sellerUrl: `http://127.0.0.1:${sellerPort}`, pccsUrl: `http://127.0.0.1:${pccsPort}`, client: chain })
  } finally {
    run.child.kill('SIGINT')
  }
  expect(await run.exited).toBe(0)
  expect(run.output()).toContain('SIGINT: stopping')
  await expect(fetch(`http://127.0.0.1:${rpcPort}`, { method: 'POST' })).rejects.toThrow()
})

/**
 * The devnet's TEE as a verifier meets it: the PCCS's collateral (read by dcap-qvl's client)
 * verifies the quote the reference seller serves for a fresh nonce, which binds service 1's key and
 * the compose file; the seeded 0G records point the reference seller's providers at its URL.
 */
async function expectDevnetTee({ output, deployment, sellerUrl, pccsUrl, client }: {
  output: string
  deployment: ReturnType<typeof DeploymentSchema.parse>
  sellerUrl: string
  pccsUrl: string
  client: ReturnType<typeof createPublicClient>
}): Promise<void> {
  expect(deployment.tee).toMatchObject({ pccsUrl })
  expect(output).toMatch(new RegExp(`PCCS \\(devnet TEE root\\) +${pccsUrl}`))
  expect(output).toContain(`inferenceServing (0G mock)  ${deployment.tee!.inferenceServing}`)
  expect(output).toMatch(/service 1 +verified: /)
  expect(output).toMatch(/service 2 +failed: /)
  expect(output).toMatch(/service 3 +unreachable: /)
  expect(output).toMatch(/service 5 +acknowledged: /)
  expect(output).toMatch(/service 6 +none: /)

  const nonce = bytesToHex(randomBytes(32))
  const response = await fetch(`${sellerUrl}/v1/attestation/report?nonce=${nonce.slice(2)}&signing_algo=ecdsa`)
  expect(response.status).toBe(200)
  const report = parseAttestationReport(await response.json())
  const { fmspc, ca, forSgx } = readCollateralKey(report.quote)
  const collateral = await getCollateralForFmspc(deployment.tee!.pccsUrl, fmspc, ca, forSgx)
  const check = (signingAddress: Hex) =>
    Object.fromEntries(
      checkTeeEvidence({ gpu: gpuNotChecked, report, collateral, now: new Date(), signingAddress, nonce, rootCa: hexToBytes(deployment.tee!.rootCa) }).checks.map(({ name, status }) => [name, status]),
    )
  const [first, second] = plannedServices
  expect(check(serviceSigningAccount({ key: first!.key, generation: 1 }).address)).toMatchObject({ quote: 'pass', tcb: 'pass', binding: 'pass', compose: 'pass' })
  // Service 2's provider points at the same seller: the quote names service 1's key, not service 2's.
  expect(check(serviceSigningAccount({ key: second!.key, generation: 1 }).address)).toMatchObject({ quote: 'pass', binding: 'fail' })

  for (const [service, acknowledged] of [[first!, true], [second!, false]] as const) {
    const record = await client.readContract({
      address: deployment.tee!.inferenceServing,
      abi: inferenceServingAbi,
      functionName: 'getService',
      args: [seedProviderAddress(service.providerIdentity)],
    })
    expect(record).toMatchObject({ url: sellerUrl, teeSignerAcknowledged: acknowledged })
  }
}

test('--host localhost, the PCCS port of the start before: the printed local entry reaches the reference seller at an address, and run fetches the output', async () => {
  const [rpcPort, port, mcpPort, sellerPort] = [await getFreePort(), await getFreePort(), await getFreePort(), await getFreePort()]
  const run = runStart([
    '--host', 'localhost',
    '--rpc-port', String(rpcPort),
    '--pccs-port', String(pccsPort),
    '--port', String(port),
    '--mcp-port', String(mcpPort),
    '--seller-port', String(sellerPort),
    '--deployment', join(directory, 'localhost.json'),
  ])
  try {
    await waitForOutput(run, /Press Ctrl\+C to stop\./)
    const output = run.output()
    const printed = output.slice(output.indexOf('ready to paste:\n') + 'ready to paste:\n'.length, output.indexOf('\n\nReady in'))
    const local = (JSON.parse(printed) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> }).mcpServers['tee-market-devnet-local']!
    // `run` refuses a name that resolves to a loopback address: the entry names the address.
    expect(local.env.MARKET_OUTPUT_URL).toBe(`http://127.0.0.1:${sellerPort}/outputs/{jobId}`)
    const stdio = new Client({ name: 'start-test', version: '1.0.0' })
    await stdio.connect(new StdioClientTransport({ command: local.command, args: local.args, env: { ...local.env, HOME: home }, cwd: directory }))
    try {
      const result = await stdio.callTool({ name: 'run', arguments: { serviceId: '1', prompt: 'Say hello.' } }, undefined, { timeout: 60_000 })
      expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false)
      expect(result.structuredContent).toMatchObject({ verified: { ok: true }, output: expect.any(String) })
      expect(result.structuredContent).not.toHaveProperty('outputNote')
      expect(existsSync(join(home, '.tee-market', 'spend-devnet.json'))).toBe(true)
    } finally {
      await stdio.close()
    }
  } finally {
    run.child.kill('SIGINT')
  }
  expect(await run.exited).toBe(0)
})

describe('flags', () => {
  test('--pccs-port must be a port', async () => {
    const run = runStart(['--pccs-port', '0', '--deployment', join(directory, 'unused.json')])
    expect(await run.exited).toBe(1)
    expect(run.output()).toContain('--pccs-port must be a TCP port number from 1 to 65535, got "0".')
  })

  test('--rpc-port must be a port', async () => {
    const run = runStart(['--rpc-port', 'abc', '--deployment', join(directory, 'unused.json')])
    expect(await run.exited).toBe(1)
    expect(run.output()).toContain('--rpc-port must be a TCP port number from 1 to 65535, got "abc".')
    expect(existsSync(join(directory, 'unused.json'))).toBe(false)
  })

  test('--rpc-port already taken by another node: refused, naming the port and the flag, before any request to it', async () => {
    // A JSON-RPC node of the same chain id, as a devnet left running would be.
    const requests: string[] = []
    const other = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        requests.push(body)
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x7a69' }))
      })
    })
    const port = await new Promise<number>((resolve) => other.listen(0, '127.0.0.1', () => resolve((other.address() as AddressInfo).port)))
    try {
      const run = runStart(['--rpc-port', String(port), '--deployment', join(directory, 'taken.json')])
      expect(await run.exited).toBe(1)
      expect(run.output()).toContain(
        `npm start failed: Port ${port} on 127.0.0.1 is already in use (another node?), so the devnet node cannot listen there; nothing was sent to it. Choose another port with --rpc-port <port>.`,
      )
      expect(requests).toEqual([])
      expect(existsSync(join(directory, 'taken.json'))).toBe(false)
    } finally {
      other.close()
    }
  })

  test('--help', async () => {
    const run = runStart(['--help'])
    expect(await run.exited).toBe(0)
    expect(run.output()).toContain('--rpc-port <port>')
  })

  test('--version', async () => {
    const run = runStart(['--version'])
    expect(await run.exited).toBe(0)
    expect(run.output().trim()).toMatch(/^tee-market \d+\.\d+\.\d+/)
  })
})

/**
 * Every verdict `npm start` printed for the seeded 0G records (the seed's plan) is the one the
 * indexer reaches and serves over REST, the hosted MCP server answers from the indexer's store, and
 * the local server reaches by checking the providers' evidence itself.
 */
async function expectSeededVerdicts({ output, restUrl, mcpUrl, stdio }: { output: string; restUrl: string; mcpUrl: string; stdio: Client }): Promise<void> {
  const printed = output.slice(output.indexOf('TEE verdicts'))
  const planned = [...printed.matchAll(/^ {2}service (\d+) +(\w+): /gm)].map(([, serviceId, verdict]) => ({ serviceId: serviceId!, verdict: verdict! }))
  expect(planned.map(({ verdict }) => verdict).sort()).toEqual(['acknowledged', 'failed', 'none', 'none', 'unreachable', 'verified'])
  let served: TeeVerdictList = { count: 0, verdicts: [] }
  await expect
    .poll(async () => {
      served = TeeVerdictListSchema.parse(await (await fetch(`${restUrl}/v1/services/tee`)).json())
      return served.count
    }, { timeout: 120_000 })
    .toBe(planned.length)
  expect(served.verdicts.map(({ serviceId, verdict }) => ({ serviceId, verdict }))).toEqual(planned)
  const verified = served.verdicts.find(({ verdict }) => verdict === 'verified')!
  expect(verified.checks.filter(({ status }) => status === 'fail')).toEqual([])
  expect(verified.measurements?.composeHash).toMatch(/^0x[0-9a-f]{64}$/)
  const evidence = TeeEvidenceSchema.parse(await (await fetch(`${restUrl}/v1/services/${verified.serviceId}/tee/evidence`)).json())
  expect(evidence).toMatchObject({ serviceId: verified.serviceId, signingAddress: verified.signingAddress })
  expect(evidence.nonce).toMatch(/^0x[0-9a-f]{64}$/)

  const hosted = new Client({ name: 'start-test', version: '1.0.0' })
  await hosted.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)))
  try {
    for (const { serviceId, verdict } of planned) {
      const answer = await hosted.callTool({ name: 'get_service_tee', arguments: { serviceId } })
      expect(answer.structuredContent).toMatchObject({ serviceId, verdict })
      const beside = await hosted.callTool({ name: 'get_service', arguments: { serviceId } })
      expect((beside.content as { text: string }[])[1]?.text).toMatch(new RegExp(`^TEE: ${verdict}\\. `))
    }
  } finally {
    await hosted.close()
  }
  for (const { serviceId, verdict } of planned) {
    const answer = await stdio.callTool({ name: 'get_service_tee', arguments: { serviceId } })
    const checks = (answer.structuredContent as { checks?: unknown } | undefined)?.checks
    expect(answer.structuredContent, `service ${serviceId}, checked by the local server: ${JSON.stringify(checks)}`).toMatchObject({ serviceId, verdict })
  }
}
