import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Health } from '../../contract/health.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import type { Readiness } from '../../server/readers/getReadiness.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { startFaultProxy, type FaultProxy } from '../support/faultProxy.ts'
import { scrapeMetrics } from '../support/scrapeMetrics.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { startSlowRpcProxy, type SlowRpcProxy } from './slowRpcProxy.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** A node refusing wider eth_getLogs, answering each request late: the seeded market's back-fill takes many slow windows. */
const maxLogRange = 4n
const delayMs = 60

let devnet: StartDevnetReturnType
let rangeCap: FaultProxy
let proxy: SlowRpcProxy
let child: ChildProcessWithoutNullStreams | undefined
let logs = ''

beforeAll(async () => {
  // `npm run serve` is dist/app/serve.js: built from this checkout, as an operator builds it, once for all files (test/support/buildAppBundles.ts).
  devnet = await startTestDevnet({ seed: true })
  rangeCap = await startFaultProxy({ target: devnet.rpcUrl, maxLogRange })
  proxy = await startSlowRpcProxy({ target: rangeCap.url, delayMs })
})

afterAll(async () => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  await proxy?.close()
  await rangeCap?.stop()
  await devnet?.stop()
})

/** `npm run serve` against the slow node; resolves with where it serves. */
async function serve(): Promise<string> {
  const flags = ['--network', 'devnet', '--rpc-url', proxy.url, '--ws-rpc-url', 'none', ...deploymentArgv(devnet.deployment), '--port', '0', '--host', '127.0.0.1']
  const spawned = spawn(process.execPath, [`${root}dist/app/serve.js`, ...flags], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] })
  child = spawned
  spawned.stderr.on('data', (chunk: Buffer) => {
    logs += chunk.toString()
  })
  let out = ''
  return new Promise<string>((resolve, reject) => {
    spawned.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /serving on (https?:\/\/\S+)/.exec(out)
      if (match !== null) resolve(match[1] as string)
    })
    spawned.once('exit', () => reject(new Error(`serve exited: ${logs.slice(-2_000)}`)))
  })
}

async function readJson<body>(url: string): Promise<{ status: number; body: body }> {
  const response = await fetch(url)
  return { status: response.status, body: (await response.json()) as body }
}

test('during the initial back-fill, /healthz, /readyz and /metrics report the head and a lag that shrinks as the cursor moves', async () => {
  const head = await createPublicClient({ transport: http(devnet.rpcUrl) }).getBlockNumber()
  const base = await serve()

  // Several looks in the middle of the back-fill: after the first window, before the head.
  const looks: Health[] = []
  for (const deadline = Date.now() + 60_000; looks.length < 3; ) {
    if (Date.now() > deadline) throw new Error(`no look in the middle of the back-fill within 60 s: ${logs.slice(-2_000)}`)
    const { status, body } = await readJson<Health>(`${base}/healthz`)
    const indexed = BigInt(body.lastIndexedBlock)
    if (!body.syncing) throw new Error(`the back-fill ended before ${3 - looks.length} more looks in its middle: make the node slower`)
    if (indexed > 0n && indexed < head && looks.at(-1)?.lastIndexedBlock !== body.lastIndexedBlock) {
      expect(status).toBe(503)
      looks.push(body)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  for (const health of looks) {
    expect(health.headBlock).toBe(head.toString())
    expect(health.lagBlocks).toBe(Number(head - BigInt(health.lastIndexedBlock)))
  }
  expect(looks[0]!.lagBlocks).toBeGreaterThan(looks.at(-1)!.lagBlocks)

  const readiness = await readJson<Readiness>(`${base}/readyz`)
  const metrics = await scrapeMetrics(base)
  const after = await readJson<Health>(`${base}/healthz`)
  if (!after.body.syncing) throw new Error('the back-fill ended before /readyz and /metrics were read in its middle: make the node slower')
  expect(readiness.status).toBe(503)
  expect(readiness.body).toMatchObject({ ready: false, reason: 'backfilling' })
  expect(readiness.body.lagBlocks).toBeGreaterThanOrEqual(after.body.lagBlocks)
  expect(readiness.body.lagBlocks).toBeLessThanOrEqual(looks.at(-1)!.lagBlocks)
  expect(metrics.get('indexer_head_block')).toBe(Number(head))
  expect(metrics.get('indexer_lag_blocks')).toBe(Number(head) - (metrics.get('indexer_cursor_block') ?? Number.NaN))

  // Once back-filled: no lag, the same head.
  for (const deadline = Date.now() + 120_000; (await fetch(`${base}/readyz`)).status !== 200; await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (Date.now() > deadline) throw new Error(`not ready in 120 s: ${logs.slice(-2_000)}`)
  }
  const done = await readJson<Health>(`${base}/healthz`)
  expect(done.body).toMatchObject({ ok: true, syncing: false, lastIndexedBlock: head.toString(), headBlock: head.toString(), lagBlocks: 0 })
})
