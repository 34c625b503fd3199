import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { projectRoot, spawnEntryPoint, type SpawnedEntryPoint } from '../rest/spawnEntryPoint.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { readRequestBody } from '../support/readRequestBody.ts'

// `npm run serve` against its one node, which answers the back-fill's first eth_getLogs with 429
// and `Retry-After: 25`: longer than the poll's watchdog (twice the 10 s request deadline). The
// calls waiting that out are not stalled: the poll is not abandoned, and the node is not asked
// again before the 25 s are over.

const devnet = inject('devnet')
const retryAfterSeconds = 25

let node: Server
let nodeUrl: string
let serve: SpawnedEntryPoint
/** When the node refused, and when it was next asked for logs (epoch ms). */
const refusal: { at?: number; nextLogsAt?: number } = {}

beforeAll(async () => {
  expect(existsSync(join(projectRoot, 'dist/app/serve.js')), 'run `npx tsup --env.only app`').toBe(true)
  node = createServer(async (request, reply) => {
    const body = await readRequestBody(request)
    if (body.includes('"eth_getLogs"')) {
      if (refusal.at === undefined) {
        refusal.at = Date.now()
        const error = { jsonrpc: '2.0', id: null, error: { code: -32005, message: 'rate limit exceeded' } }
        reply.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(retryAfterSeconds) }).end(JSON.stringify(error))
        return
      }
      refusal.nextLogsAt ??= Date.now()
    }
    const answer = await fetch(devnet.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    reply.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
  })
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve))
  nodeUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}`
})

afterAll(async () => {
  expect(await serve?.stop()).toBe(0)
  await new Promise<void>((resolve) => node?.close(() => resolve()))
})

test('default: a Retry-After longer than the watchdog is waited out in one poll, and obeyed', async () => {
  serve = spawnEntryPoint(['dist/app/serve.js', '--network', 'devnet', '--rpc-url', nodeUrl, '--ws-rpc-url', 'none', ...deploymentArgv(devnet.deployment), '--port', '0'])
  await serve.waitFor(/serving on http:\/\/127\.0\.0\.1:\d+/)
  const base = /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(serve.output())![1]!
  for (const deadline = Date.now() + 90_000; (await fetch(`${base}/readyz`)).status !== 200; ) {
    if (Date.now() > deadline) throw new Error(`not ready within 90 s:\n${serve.output().slice(-2_000)}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  expect(refusal.at).toBeDefined()
  expect(refusal.nextLogsAt! - refusal.at!).toBeGreaterThanOrEqual(retryAfterSeconds * 1_000 - 100)
  expect(serve.output()).not.toMatch(/abandoned/)
})
