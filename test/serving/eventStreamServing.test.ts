import { spawn } from 'node:child_process'
import { get } from 'node:https'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadConfig } from '../../config/loadConfig.ts'
import type { StartDevnetReturnType } from '../../devnet/startDevnet.ts'
import { startRestIndexer, type StartRestIndexerReturnType } from '../../server/startRestIndexer.ts'
import { createMarketDriver, type MarketDriver } from '../indexer/support/createMarketDriver.ts'
import { deploymentArgv } from '../support/deploymentArgv.ts'
import { getFreePort } from '../support/getFreePort.ts'
import { makeTestCertificates } from '../support/makeTestCertificates.ts'
import { openEventStream, type OpenedEventStream, type ReceivedEvent } from '../support/openEventStream.ts'
import { startTestDevnet } from '../support/startTestDevnet.ts'
import { startNginx, type StartNginxReturnType } from './support/startNginx.ts'

// The live feed (GET /v1/events) as it is served in production: through Debian's nginx running
// deploy/nginx.conf (TLS, HTTP/1.1 and HTTP/2 to clients) in front of an indexer that trusts it,
// and over the indexer's own TLS listener. nginx's http { } block turns gzip on for event streams
// and ignores the indexer's X-Accel-Buffering, so only deploy/nginx.conf keeps the stream
// uncompressed and unbuffered.

const certificates = makeTestCertificates()
/** Loopback aliases of this file's own (files run side by side): nginx's address, then two clients of it. */
const proxyAddress = '127.0.0.8'
const clientAddresses = ['127.0.0.9', '127.0.0.10'] as const
/** The heartbeat (15 s) and slack for a loaded host. */
const heartbeatWaitMs = 30_000
const pollIntervalMs = 250

let devnet: StartDevnetReturnType
let market: MarketDriver
let serviceId: bigint
let proxied: StartRestIndexerReturnType
let direct: StartRestIndexerReturnType
let nginx: StartNginxReturnType
let httpsPort: number
let api: string

function statusOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { ca: certificates.ca }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    }).on('error', reject)
  })
}

function throughNginx(query = '', localAddress?: string): Promise<OpenedEventStream> {
  return openEventStream(`${api}/v1/events${query}`, { connectHost: '127.0.0.1', localAddress, ca: certificates.ca, headers: { 'accept-encoding': 'gzip, br' } })
}

function isJob(jobId: bigint): (event: ReceivedEvent) => boolean {
  return ({ event, data }) => event === 'job' && data.jobId === jobId.toString()
}

/** curl -N over HTTP/2 through nginx, until its output holds `until` (or `--max-time`). */
function curlStream(path: string, until: string): { output: () => string; log: () => string; stop: () => void; done: Promise<void> } {
  let output = ''
  let log = ''
  const child = spawn('curl', ['-sS', '-v', '-N', '--http2', '--max-time', '60', '--cacert', certificates.caPath, '--resolve', `api.example.org:${httpsPort}:127.0.0.1`, '-H', 'Accept-Encoding: gzip', `${api}${path}`])
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('latin1')
    if (output.includes(until)) child.kill()
  })
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('latin1')))
  return { output: () => output, log: () => log, stop: () => void child.kill(), done: new Promise((resolve) => child.once('exit', () => resolve())) }
}

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: false })
  market = createMarketDriver({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment })
  serviceId = await market.registerService()
  const argv = ['--network', 'devnet', '--rpc-url', devnet.rpcUrl, ...deploymentArgv(devnet.deployment), '--poll-interval', String(pollIntervalMs), '--host', '127.0.0.1', '--port', '0']
  const served = certificates.issue('direct')
  ;[proxied, direct] = await Promise.all([
    startRestIndexer(loadConfig({ argv: [...argv, '--trust-proxy', proxyAddress], env: {} }), { mode: 'production', logger: false }),
    startRestIndexer(loadConfig({ argv: [...argv, '--tls-cert', served.certPath, '--tls-key', served.keyPath], env: {} }), { mode: 'production', logger: false }),
  ])
  const restPort = Number(new URL(proxied.url).port)
  const proxyCertificate = certificates.issue('proxy', ['api.example.org', 'mcp.example.org'])
  httpsPort = await getFreePort()
  nginx = await startNginx({
    httpsPort,
    httpPort: await getFreePort(),
    restPort,
    mcpPort: restPort,
    certPath: proxyCertificate.certPath,
    keyPath: proxyCertificate.keyPath,
    proxyBind: proxyAddress,
    httpDirectives: 'gzip on; gzip_min_length 1; gzip_types text/event-stream application/json; proxy_ignore_headers X-Accel-Buffering;',
  })
  api = `https://api.example.org:${httpsPort}`
  while ((await fetch(`${proxied.url}/readyz`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
  while ((await statusOf(`${direct.url}/readyz`)) !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
})

afterAll(async () => {
  // The indexers first: they end their streams, which nginx's graceful stop would wait for.
  await proxied?.stop()
  await direct?.stop()
  await nginx?.stop()
  await devnet?.stop()
  certificates.remove()
})

test('default: through nginx (HTTP/1.1 and HTTP/2) and over direct TLS, a job event comes within seconds of its block, uncompressed, then the heartbeat', async () => {
  const query = `?serviceId=${serviceId}`
  const streams = [await throughNginx(query), await openEventStream(`${direct.url}/v1/events${query}`, { ca: certificates.ca, headers: { 'accept-encoding': 'gzip, br' } })]
  const curl = curlStream(`/v1/events${query}`, '"change":"created"')
  try {
    for (const stream of streams) {
      expect(stream.status).toBe(200)
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8')
      expect(stream.headers['content-encoding']).toBeUndefined()
      expect(stream.headers['cache-control']).toBe('no-cache, no-transform')
    }
    for (const stream of streams) await expect.poll(() => stream.text).toMatch(/^retry: 3000\n\n/)
    await expect.poll(() => curl.output()).toContain('retry: 3000\n\n')
    const jobId = await market.createJob({ serviceId })
    const minedAt = performance.now()
    const received = await Promise.all(streams.map((stream) => stream.waitFor(isJob(jobId))))
    for (const [index, event] of received.entries()) {
      expect(streams[index]?.text.match(/^retry: .*$/gm)).toEqual(['retry: 3000'])
      // The bound lag.test keeps (the poll interval + 10 s); held in nginx's buffer, the event would not come at all
      // until kilobytes more filled it (tried: the wait above times out).
      const stream = streams[index] as OpenedEventStream
      expect((stream.arrivals[stream.events.indexOf(event)] as number) - minedAt).toBeLessThan(pollIntervalMs + 10_000)
    }
    for (const stream of streams) await expect.poll(() => stream.text, { timeout: heartbeatWaitMs }).toContain('\n\n: keep-alive\n\n')
    await curl.done
    expect(curl.log()).toContain('< HTTP/2 200')
    expect(curl.output()).toMatch(new RegExp(`^retry: 3000\n\n(.*\n)*event: job\ndata: \\{"change":"created",.*"jobId":"${jobId}"`))
  } finally {
    for (const stream of streams) stream.close()
    curl.stop()
  }
})

describe('the per-client cap counts the addresses nginx forwards', () => {
  test('two clients through nginx each get their own 8 streams; the 9th of each is a JSON 429 with Retry-After', async () => {
    const held: OpenedEventStream[] = []
    try {
      for (const client of clientAddresses) {
        const streams = await Promise.all(Array.from({ length: 8 }, () => throughNginx('', client)))
        held.push(...streams)
        expect(streams.map(({ status }) => status)).toEqual(Array(8).fill(200))
        const refused = await throughNginx('', client)
        await refused.ended
        expect(refused.status).toBe(429)
        expect(refused.headers['content-type']).toBe('application/json; charset=utf-8')
        expect(refused.headers['retry-after']).toBe('10')
        expect(refused.headers['access-control-allow-origin']).toBe('*')
        expect(JSON.parse(refused.text)).toEqual({
          error: { code: 'too_many_streams', message: 'This address holds 8 streams, the most one client may open; one stream can filter for many jobs (jobs=1,2,3). Retry after 10 s.' },
        })
      }
    } finally {
      for (const stream of held) stream.close()
    }
  })
})
