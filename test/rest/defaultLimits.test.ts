import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { defaultServerLimits } from '../../platform/http/hardenServer.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { halfSentKinds, openHalfSentRequest } from './openHalfSentRequest.ts'
import { projectRoot, spawnEntryPoint, type SpawnedEntryPoint } from './spawnEntryPoint.ts'

// Every server as its entry point starts it, at the default limits no test sets: `npm start`'s
// three (REST, hosted MCP, seller), `npm run serve` and `npm run mcp:hosted`. Every kind of
// half-sent request, the second one of a keep-alive connection included, is answered 408 and
// closed within the headers timeout + 10 s, all sockets at once (slack for a loaded host, below
// the 30 s request timeout: a socket closed in time was closed by the headers timeout).

const devnet = inject('devnet')
const directory = mkdtempSync(join(tmpdir(), 'tee-market-limits-'))
const closeLimitMs = defaultServerLimits.headersTimeoutMs + 10_000
const socketsPerKind = 4

type Target = { name: string; port: number; path: string }

const running: SpawnedEntryPoint[] = []
const targets: Target[] = []

beforeAll(async () => {
  for (const entry of ['dist/app/serve.js', 'dist/app/mcp-hosted.js']) {
    expect(existsSync(join(projectRoot, entry)), `${entry}: run \`npx tsup --env.only app\``).toBe(true)
  }
  const [rpcPort, port, mcpPort, sellerPort, servePort, hostedPort] = await Promise.all([getFreePort(), getFreePort(), getFreePort(), getFreePort(), getFreePort(), getFreePort()])
  const start = spawnEntryPoint(['--import', 'tsx', 'devnet/start.ts', '--rpc-port', String(rpcPort), '--port', String(port), '--mcp-port', String(mcpPort), '--seller-port', String(sellerPort), '--deployment', join(directory, 'deployment.json')])
  const serve = spawnEntryPoint(['dist/app/serve.js', '--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(devnet.deployment), '--port', String(servePort)])
  running.push(start, serve)
  await serve.waitFor(/serving on http:\/\/127\.0\.0\.1:\d+/)
  const hosted = spawnEntryPoint(['dist/app/mcp-hosted.js', '--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(devnet.deployment), '--mcp-port', String(hostedPort), '--indexer-url', `http://127.0.0.1:${servePort}`])
  running.push(hosted)
  await Promise.all([start.waitFor(/Press Ctrl\+C to stop\./), hosted.waitFor(/hosted mcp started on/)])
  targets.push(
    { name: 'npm start: REST', port, path: '/v1/stats' },
    { name: 'npm start: hosted MCP', port: mcpPort, path: '/healthz' },
    { name: 'npm start: seller', port: sellerPort, path: '/outputs/1' },
    { name: 'npm run serve', port: servePort, path: '/v1/stats' },
    { name: 'npm run mcp:hosted', port: hostedPort, path: '/healthz' },
  )
})

afterAll(async () => {
  for (const entry of running) expect(await entry.stop()).toBe(0)
  rmSync(directory, { recursive: true, force: true })
})

test('default: every half-sent request to every entry point is answered 408 and closed within the headers timeout + 10 s', async () => {
  const opened = targets.flatMap((target) =>
    halfSentKinds.flatMap((kind) =>
      Array.from({ length: socketsPerKind }, async () => ({
        server: target.name,
        ...(await openHalfSentRequest({ port: target.port, path: target.path, kind, giveUpMs: closeLimitMs + 5_000 })),
      })),
    ),
  )
  const results = await Promise.all(opened)
  expect(results).toHaveLength(targets.length * halfSentKinds.length * socketsPerKind)
  const late = results.filter(({ answer, closedAfterMs }) => !answer.startsWith('HTTP/1.1 408 ') || closedAfterMs >= closeLimitMs)
  expect(late.map(({ server, kind, closedAfterMs, answer }) => ({ server, kind, closedAfterMs, answer: answer.slice(0, 12) }))).toEqual([])
  for (const { answer } of results) expect(answer).toContain('"code":"request_timeout"')
})
