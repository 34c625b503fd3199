import { makeTestCertificates } from '../test/support/makeTestCertificates.ts'
import type { LoadSettings } from './compareWithCeiling.ts'
import { readChildCpu } from './readChildCpu.ts'
import { runHttp2Load } from './runHttp2Load.ts'
import { runLoad, type RunLoadReturnType } from './runLoad.ts'
import { spawnBenchChild, type BenchChild } from './spawnBenchChild.ts'
import type { ServeTlsMessage, TlsVariant } from './serveTlsVariant.ts'
import { median } from './percentile.ts'
import { formatCostCells } from './formatCostCells.ts'

export type TlsCost = {
  endpoint: 'GET /v1/jobs/:id' | 'MCP get_job'
  /** How it was served and asked: `http`, `https HTTP/1.1`, ... */
  label: string
  requestsPerSec: number
  p50Ms: number
  p99Ms: number
  cpuMicrosPerRequest: number
  /** Extra server CPU per request against plain HTTP on the same endpoint. */
  extraCpuMicrosPerRequest: number
  /** Throughput change against plain HTTP on the same endpoint, in percent. */
  throughputChangePercent: number
}

type Server = 'http' | 'https' | 'https+h2'
type Target = { endpoint: TlsCost['endpoint']; label: string; server: Server; load: (urls: { restUrl: string; mcpUrl: string }, serverCpu: () => Promise<number>) => Promise<RunLoadReturnType> }

/** Load rounds per target in alternating order; the median is kept (a shared machine's bursts hit no target alone). */
const rounds = 3
/** HTTP/2 connections the HTTP/2 client spreads its requests in flight over, as a browser or proxy keeps few. */
const http2Sessions = 4

/** The job the stage asks for, on REST and through get_job: the one each server holds. */
const jobId = '1'

const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
const getJobCall = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_job', arguments: { jobId: jobId } } })

/**
 * What TLS costs per request, keep-alive throughout: the REST app's `GET /v1/jobs/:id` and the
 * hosted MCP server's get_job over plain HTTP, HTTPS with HTTP/1.1 (autocannon), and from a server
 * offering HTTP/2 beside HTTP/1.1, asked over HTTP/1.1 (autocannon: the fallback's cost) and over
 * HTTP/2 (a node:http2 client, as autocannon speaks no HTTP/2). Three server processes, one per way
 * of serving, with a certificate made for the run (P-256, like Let's Encrypt's default).
 */
export async function measureTls({ load }: { load: LoadSettings }): Promise<TlsCost[]> {
  const certificates = makeTestCertificates()
  const { certPath, keyPath } = certificates.issue('bench')
  const servers: Record<Server, TlsVariant> = {
    http: { tls: null, http2: false, jobId },
    https: { tls: { certPath, keyPath }, http2: false, jobId },
    'https+h2': { tls: { certPath, keyPath }, http2: true, jobId },
  }
  const children = Object.fromEntries(
    Object.entries(servers).map(([name, variant]) => [
      name,
      spawnBenchChild<ServeTlsMessage>({ entry: 'bench/serveTlsVariant.ts', options: variant, name: `tls: ${name}` }),
    ]),
  ) as Record<Server, BenchChild<ServeTlsMessage>>
  const rest = (urls: { restUrl: string }) => `${urls.restUrl}/v1/jobs/${jobId}`
  const targets: Target[] = [
    { endpoint: 'GET /v1/jobs/:id', label: 'http', server: 'http', load: (urls, serverCpu) => runLoad({ url: rest(urls), ...load, serverCpu }) },
    { endpoint: 'GET /v1/jobs/:id', label: 'https HTTP/1.1', server: 'https', load: (urls, serverCpu) => runLoad({ url: rest(urls), ...load, serverCpu }) },
    { endpoint: 'GET /v1/jobs/:id', label: 'https h2 server, HTTP/1.1', server: 'https+h2', load: (urls, serverCpu) => runLoad({ url: rest(urls), ...load, serverCpu }) },
    {
      endpoint: 'GET /v1/jobs/:id',
      label: `https HTTP/2 (${http2Sessions} conns)`,
      server: 'https+h2',
      load: (urls, serverCpu) => runHttp2Load({ url: rest(urls), ...load, serverCpu, ca: certificates.ca, sessions: http2Sessions }),
    },
    ...(['http', 'https'] as const).map((server): Target => ({
      endpoint: 'MCP get_job',
      label: server === 'http' ? 'http' : 'https HTTP/1.1',
      server,
      load: (urls, serverCpu) => runLoad({ url: urls.mcpUrl, method: 'POST', headers: mcpHeaders, body: getJobCall, ...load, serverCpu }),
    })),
  ]
  try {
    const [http, https, h2] = await Promise.all([children.http.next('listening'), children.https.next('listening'), children['https+h2'].next('listening')])
    const urls: Record<Server, { restUrl: string; mcpUrl: string }> = { http, https, 'https+h2': h2 }
    const results: RunLoadReturnType[][] = targets.map(() => [])
    for (let round = 0; round < rounds; round++) {
      const order = targets.map((_target, index) => index)
      if (round % 2 === 1) order.reverse()
      for (const index of order) {
        const target = targets[index]!
        const child = children[target.server]
        const run = await target.load(urls[target.server], () => readChildCpu(child))
        if (run.failures > 0) throw new Error(`tls: ${target.endpoint} over ${target.label} had ${run.failures} failed requests`)
        results[index]!.push(run)
      }
    }
    const measured = targets.map((target, index) => {
      const runs = results[index]!
      return {
        endpoint: target.endpoint,
        label: target.label,
        requestsPerSec: median(runs.map((run) => run.requestsPerSec)),
        p50Ms: median(runs.map((run) => run.p50Ms)),
        p99Ms: median(runs.map((run) => run.p99Ms)),
        cpuMicrosPerRequest: median(runs.map((run) => run.cpuMicrosPerRequest)),
      }
    })
    return measured.map((entry) => {
      const base = measured.find((other) => other.endpoint === entry.endpoint && other.label === 'http')!
      return {
        ...entry,
        extraCpuMicrosPerRequest: Math.round((entry.cpuMicrosPerRequest - base.cpuMicrosPerRequest) * 10) / 10,
        throughputChangePercent: Math.round(((entry.requestsPerSec - base.requestsPerSec) / base.requestsPerSec) * 1000) / 10,
      }
    })
  } finally {
    await Promise.all(Object.values(children).map((child) => child.stop()))
    certificates.remove()
  }
}

/** The figures as a table for the terminal. */
export function printTlsTable(costs: readonly TlsCost[]): string {
  const rows = costs.map((cost) =>
    [
      cost.endpoint.padEnd(17),
      cost.label.padEnd(26),
      ...formatCostCells(cost),
    ].join('  '),
  )
  return [
    'TLS cost (keep-alive; HTTP/2 through a node:http2 client, the rest through autocannon)',
    `${'endpoint'.padEnd(17)}  ${'served / asked'.padEnd(26)}  ${'req/s'.padStart(8)}  ${'vs http'.padStart(8)}  ${'p50 ms'.padStart(6)}  ${'p99 ms'.padStart(6)}  ${'CPU µs/req'.padStart(9)}  ${'extra µs'.padStart(9)}`,
    ...rows,
  ].join('\n')
}
