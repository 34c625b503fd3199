import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createPublicClient, http } from 'viem'
import { readContract } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { startFaultProxy, type FaultProxy } from '../support/faultProxy.ts'
import { devnetEnv } from './support/devnetEnv.ts'
import { rotatedServiceId, seededJobs } from './support/seededJobs.ts'

const devnet = inject('devnet')
const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const node = createPublicClient({ transport: http(devnet.rpcUrl) })

type Served = { child: ChildProcess; restUrl: string; mcpUrl: string; stderr: () => string }

/**
 * `npm run serve -- --mcp-port 0` as its own process (the entry through tsx), reading the node
 * through `rpcUrl`; resolves with the two URLs it prints once the REST API says it is ready.
 */
async function spawnServe(rpcUrl: string): Promise<Served> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--port', '0', '--mcp-port', '0'], {
    cwd: projectRoot,
    // No poll while the tools are called (an hour apart), and no new-heads socket: every call the
    // node sees after the back-fill is one a tool call made.
    env: devnetEnv({ rpcUrl, deployment: devnet.deployment }, { POLL_INTERVAL_MS: '3600000', WS_RPC_URL: 'none' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const urls = await new Promise<{ restUrl: string; mcpUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}${stdout}`)), 60_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const rest = /REST indexer \(devnet\) serving on (\S+)/.exec(stdout)?.[1]
      const mcp = /hosted MCP \(devnet\) serving on (\S+)/.exec(stdout)?.[1]
      if (rest !== undefined && mcp !== undefined) {
        clearTimeout(timer)
        resolve({ restUrl: rest, mcpUrl: mcp })
      }
    })
    child.once('exit', () => reject(new Error(`serve exited: ${stderr}${stdout}`)))
  })
  for (let attempt = 0; (await fetch(`${urls.restUrl}/readyz`)).status !== 200; attempt++) {
    if (attempt > 300) throw new Error(`serve never got ready: ${stderr}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { child, ...urls, stderr: () => stderr }
}

async function call(client: Client, name: string, args: Record<string, string> = {}): Promise<unknown> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  expect(result.isError ?? false).toBe(false)
  return result.structuredContent
}

async function rest(served: Served, path: string): Promise<unknown> {
  const response = await fetch(`${served.restUrl}${path}`)
  expect(response.status).toBe(200)
  return response.json()
}

describe('npm run serve -- --mcp-port: REST and hosted MCP from one store', () => {
  let proxy: FaultProxy
  let served: Served
  let client: Client

  beforeAll(async () => {
    proxy = await startFaultProxy({ target: devnet.rpcUrl })
    served = await spawnServe(proxy.url)
    client = new Client({ name: 'serve-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(served.mcpUrl)))
  })

  afterAll(async () => {
    await client?.close()
    served?.child.kill('SIGTERM')
    await proxy?.stop()
  })

  test('default: it logs that it reads the indexer in this process', () => {
    expect(served.stderr()).toContain('"reading":"the indexer in this process"')
  })

  test('every tool answers without a call to the node, equal to the REST API', async () => {
    const before = { ...proxy.calls }
    // The back-fill went through the proxy: the counter sees this process's node.
    expect(before['eth_getLogs']).toBeGreaterThan(0)
    const jobIds = [seededJobs.settled, seededJobs.pending, seededJobs.signedBeforeRotation, seededJobs.signedAfterRotation]

    const services = (await call(client, 'list_services')) as { services: unknown[]; chainId: number }
    expect(services.services).toEqual(((await rest(served, '/v1/services')) as { services: unknown[] }).services)
    expect(services.chainId).toBe(31337)
    expect(await call(client, 'get_service', { serviceId: rotatedServiceId })).toEqual(
      await rest(served, `/v1/services/${rotatedServiceId}`),
    )
    for (const jobId of jobIds) {
      const { events: _events, ...job } = (await rest(served, `/v1/jobs/${jobId}`)) as Record<string, unknown>
      expect(await call(client, 'get_job', { jobId })).toEqual(job)
    }
    const verified = await call(client, 'verify_attestation', { jobId: seededJobs.settled })
    const rotated = (await call(client, 'verify_attestation', { jobId: seededJobs.signedBeforeRotation })) as Record<string, string>
    const afterRotation = await call(client, 'verify_attestation', { jobId: seededJobs.signedAfterRotation })

    expect(proxy.calls).toEqual(before)
    expect(verified).toMatchObject({ ok: true })
    expect(afterRotation).toMatchObject({ ok: true })
    // Against the chain itself: the key now registered, and the job's state.
    const service = await readContract(node, {
      address: devnet.deployment.registry,
      abi: registryAbi,
      functionName: 'getService',
      args: [BigInt(rotatedServiceId)],
    })
    expect(rotated).toMatchObject({ ok: false, expectedSigner: service.signingAddress })
    expect(rotated.recoveredSigner).not.toBe(service.signingAddress)
    expect(rotated.note).toBe(
      `The job was signed by ${rotated.recoveredSigner}, the key recorded when the job was attested; ` +
        `the service has since rotated its signing key to ${service.signingAddress}.`,
    )
    const job = await readContract(node, {
      address: devnet.deployment.escrow,
      abi: escrowAbi,
      functionName: 'getJob',
      args: [BigInt(seededJobs.settled)],
    })
    expect(await call(client, 'get_job', { jobId: seededJobs.settled })).toMatchObject({ state: job.state })
  })

  test('an unknown id: isError naming it, from the index', async () => {
    const result = (await client.callTool({ name: 'get_job', arguments: { jobId: '999999' } })) as CallToolResult
    expect(result.isError).toBe(true)
    expect(result.content[0]).toEqual({ type: 'text', text: 'Job "999999" could not be found.' })
  })
})
