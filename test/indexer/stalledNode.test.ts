import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import type { Health } from '../../contract/health.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { startStallingProxy, type StallingProxy, type StallKind } from '../support/startStallingProxy.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { createMarketDriver, type MarketDriver } from './support/createMarketDriver.ts'

/** startIndexer's default request deadline, which `npm run serve` uses. */
const defaultTimeoutMs = 10_000
const root = fileURLToPath(new URL('../../', import.meta.url))

let devnet: StartDevnetReturnType
let proxy: StallingProxy
let driver: MarketDriver
let serviceId: bigint
let server: ChildProcessWithoutNullStreams | undefined
let serverLogs = ''
let base: string

beforeAll(async () => {
  // `npm run serve` is dist/app/serve.js: built from this checkout, as an operator builds it.
  execFileSync('npx', ['tsup', '--env.only', 'app'], { cwd: root, stdio: 'ignore' })
  devnet = await startTestDevnet({ seed: false })
  proxy = await startStallingProxy({ target: devnet.rpcUrl })
  driver = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
  serviceId = await driver.registerService()
  base = await serve([
    '--network', 'devnet',
    '--rpc-url', proxy.url,
    '--ws-rpc-url', 'none',
    ...deploymentArgv(devnet.deployment),
    '--port', '0',
    '--poll-interval', '500',
    '--metrics', 'off',
  ])
}, 180_000)

afterAll(async () => {
  if (server !== undefined && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve))
    server.kill('SIGTERM')
    await exited
  }
  await proxy?.stop()
  await devnet?.stop()
})

/** `npm run serve -- <argv>`; resolves with its REST URL once /readyz answers 200. */
async function serve(argv: string[]): Promise<string> {
  server = spawn(process.execPath, [`${root}dist/app/serve.js`, ...argv], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] })
  server.stderr.on('data', (chunk: Buffer) => {
    serverLogs += chunk.toString()
  })
  let out = ''
  const url = await new Promise<string>((resolve, reject) => {
    server?.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /serving on (https?:\/\/\S+)/.exec(out)
      if (match !== null) resolve(match[1] as string)
    })
    server?.once('exit', () => reject(new Error(`serve exited: ${serverLogs.slice(-2_000)}`)))
  })
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
    if ((await fetch(`${url}/readyz`).then((response) => response.status, () => 0)) === 200) return url
  }
  throw new Error(`serve not ready in 60 s: ${serverLogs.slice(-2_000)}`)
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

async function readHealth(): Promise<Health> {
  return (await (await fetch(`${base}/healthz`)).json()) as Health
}

describe('behind a node whose answers stall, the index catches up within 2 x the request deadline', () => {
  test.each(['halfBody', 'never'] as const satisfies readonly StallKind[])('%s', async (kind) => {
    proxy.stall({ kind, answers: 1 })
    const jobIds = [await driver.createJob({ serviceId }), await driver.createJob({ serviceId })]
    const createdAt = Date.now()
    const namedStalls: Health['stalledNodes'] = []
    let caughtUpAt: number | undefined
    while (caughtUpAt === undefined && Date.now() - createdAt < 4 * defaultTimeoutMs) {
      const health = await readHealth()
      namedStalls.push(...health.stalledNodes)
      const served = await Promise.all(jobIds.map((id) => fetch(`${base}/v1/jobs/${id}`).then((response) => response.status)))
      if (served.every((status) => status === 200)) caughtUpAt = Date.now()
      else await sleep(200)
    }
    const stalled = proxy.stalled()
    console.info(`${kind}: ${stalled.answers} answers stalled so far; caught up ${caughtUpAt === undefined ? 'never' : `${caughtUpAt - createdAt} ms`} after the jobs were mined`)
    expect(caughtUpAt, serverLogs.slice(-2_000)).toBeDefined()
    expect((caughtUpAt as number) - createdAt).toBeLessThanOrEqual(2 * defaultTimeoutMs)
    expect(namedStalls.some(({ url }) => url === proxy.url)).toBe(true)
    const failures = serverLogs.split('\n').flatMap((line) => (line.includes('"rpc_deadline"') ? [JSON.parse(line) as { err: string }] : []))
    expect(failures.at(-1)?.err).toMatch(new RegExp(`^The RPC node at "${proxy.url}" did not finish its answer to .+ within 10 s \\(${kind === 'never' ? 'no answer' : 'status and headers came, the body stopped'}\\)\\.$`))
    // Once it answers again, health lists it no more.
    await expect.poll(async () => (await readHealth()).stalledNodes, { timeout: 5_000 }).toEqual([])
  }, 120_000)
})
