import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Health } from '../../contract/health.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { startStallingProxy, type StallingProxy, type StallKind } from '../support/startStallingProxy.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { createMarketDriver, type MarketDriver } from './support/createMarketDriver.ts'

/** startIndexer's default request deadline, which `npm run serve` uses. */
const defaultTimeoutMs = 10_000
const root = fileURLToPath(new URL('../../', import.meta.url))

/** A running `npm run serve` behind its own stalling proxy. */
type Served = { base: string; proxy: StallingProxy; logs: () => string; stop: () => Promise<void> }

let devnet: StartDevnetReturnType
let driver: MarketDriver
let serviceId: bigint
let dataDir: string
const servers: Record<'in memory' | 'with a data dir', Served> = {} as never

beforeAll(async () => {
  // `npm run serve` is dist/app/serve.js: built from this checkout, as an operator builds it, once for all files (test/support/buildAppBundles.ts).
  devnet = await startTestDevnet({ seed: false })
  driver = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
  serviceId = await driver.registerService()
  dataDir = await mkdtemp(join(tmpdir(), 'tee-market-stalled-'))
  ;[servers['in memory'], servers['with a data dir']] = await Promise.all([serve([]), serve(['--data-dir', dataDir])])
})

afterAll(async () => {
  await Promise.all(Object.values(servers).map((served) => served.stop()))
  await devnet?.stop()
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
})

/** `npm run serve -- <argv>` reading the devnet through a stalling proxy; resolves once /readyz answers 200. */
async function serve(argv: string[]): Promise<Served> {
  const proxy = await startStallingProxy({ target: devnet.rpcUrl })
  const flags = ['--network', 'devnet', '--rpc-url', proxy.url, '--ws-rpc-url', 'none', ...deploymentArgv(devnet.deployment), '--port', '0', '--poll-interval', '500', '--metrics', 'off']
  const child = spawn(process.execPath, [`${root}dist/app/serve.js`, ...flags, ...argv], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] })
  let logs = ''
  child.stderr.on('data', (chunk: Buffer) => {
    logs += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
    await proxy.stop()
  }
  let out = ''
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /serving on (https?:\/\/\S+)/.exec(out)
      if (match !== null) resolve(match[1] as string)
    })
    void exited.then(() => reject(new Error(`serve exited: ${logs.slice(-2_000)}`)))
  })
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
    if ((await fetch(`${base}/readyz`).then((response) => response.status, () => 0)) === 200) return { base, proxy, logs: () => logs, stop }
  }
  await stop()
  throw new Error(`serve not ready in 60 s: ${logs.slice(-2_000)}`)
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

async function readHealth(base: string): Promise<Health> {
  return (await (await fetch(`${base}/healthz`)).json()) as Health
}

describe.each(['in memory', 'with a data dir'] as const)('npm run serve %s, behind a node whose answers stall', (mode) => {
  test.each(['halfBody', 'never'] as const satisfies readonly StallKind[])('%s: the index catches up within 2 x the request deadline', async (kind) => {
    const { base, proxy, logs } = servers[mode]
    proxy.stall({ kind, answers: 1 })
    const jobIds = [await driver.createJob({ serviceId }), await driver.createJob({ serviceId })]
    const createdAt = Date.now()
    const namedStalls: Health['stalledNodes'] = []
    let caughtUpAt: number | undefined
    while (caughtUpAt === undefined && Date.now() - createdAt < 4 * defaultTimeoutMs) {
      namedStalls.push(...(await readHealth(base)).stalledNodes)
      const served = await Promise.all(jobIds.map((id) => fetch(`${base}/v1/jobs/${id}`).then((response) => response.status)))
      if (served.every((status) => status === 200)) caughtUpAt = Date.now()
      else await sleep(200)
    }
    console.info(`${mode}, ${kind}: caught up ${caughtUpAt === undefined ? 'never' : `${caughtUpAt - createdAt} ms`} after the jobs were mined`)
    expect(caughtUpAt, logs().slice(-2_000)).toBeDefined()
    expect((caughtUpAt as number) - createdAt).toBeLessThanOrEqual(2 * defaultTimeoutMs)
    expect(namedStalls.some(({ url }) => url === proxy.url)).toBe(true)
    const failures = logs().split('\n').flatMap((line) => (line.includes('"rpc_deadline"') ? [JSON.parse(line) as { err: string }] : []))
    expect(failures.at(-1)?.err).toMatch(new RegExp(`^The RPC node at "${proxy.url}" did not finish its answer to .+ within 10 s \\(${kind === 'never' ? 'no answer' : 'status and headers came, the body stopped'}\\)\\.$`))
    // Once it answers again, health lists it no more.
    await expect.poll(async () => (await readHealth(base)).stalledNodes).toEqual([])
  })
})
