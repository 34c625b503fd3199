import { mkdirSync } from 'node:fs'
import { loadavg } from 'node:os'
import { BenchChildError } from '../errors/bench.ts'
import { fetchFirstAnswer, type LoadSettings, type LoadTarget } from './compareWithCeiling.ts'
import type { TargetCheck } from './evaluateTargets.ts'
import { mcpTargets } from './measureMcp.ts'
import { restTargets } from './measureRest.ts'
import { median } from './percentile.ts'
import { table } from './printTable.ts'
import { readChildCpu } from './readChildCpu.ts'
import { runLoad, type RunLoadReturnType } from './runLoad.ts'
import type { ServeFilledStoreMessage } from './serveFilledStore.ts'
import { spawnBenchChild, type BenchChild } from './spawnBenchChild.ts'

/** Heap per job the store may take at the last size (1.5 KB). */
export const heapTargetBytesPerJob = 1_536
/** How much slower than at the first size a route may answer at the last. */
export const latencyTargetRatio = 1.2
/** autocannon counts latency in whole milliseconds: a change of one is within its resolution. */
const latencyResolutionMs = 1
/** Load rounds per route and size in alternating order; the median is kept (a shared machine's bursts hit no size alone). */
const rounds = 3

export type ServingScaleStore = {
  jobs: number
  fillMs: number
  heapBytesPerJob: number
  rssBytesPerJob: number
}

export type ServingScaleFigures = Pick<RunLoadReturnType, 'requestsPerSec' | 'p50Ms' | 'p99Ms' | 'cpuMicrosPerRequest'> & { bodyBytes: number }

export type ServingScaleRoute = {
  name: string
  /** One per store, in the order of `stores`. */
  figures: ServingScaleFigures[]
}

export type ServingAtScaleResult = {
  /** How the figures were made, printed above them. */
  setup: string
  stores: ServingScaleStore[]
  routes: ServingScaleRoute[]
  /** The machine's load average (1, 5, 15 min) before the fills and after the last load. */
  loadAverage: { before: number[]; after: number[] }
  targets: TargetCheck[]
}

export type MeasureServingAtScaleParameters = {
  load: LoadSettings
  /** Store sizes, ascending: the first is the baseline, the last the target size. */
  jobs: readonly number[]
  /** Node flags for the servers (none: Node's defaults). */
  nodeFlags?: readonly string[]
  /** Profile each store's server (`--cpu-prof`) into this directory. */
  cpuProfDir?: string | null
  progress: (message: string) => void
}

type Server = { child: BenchChild<ServeFilledStoreMessage>; listening: Extract<ServeFilledStoreMessage, { type: 'listening' }> }

/**
 * Serving at each of `jobs` store sizes (the 10,000, 100,000 and 1,000,000): for each a process of its own fills a store
 * directly with the bench market (serveFilledStore: no chain, as a 1,000,000-job devnet would
 * need some 35 GB), reports its heap and RSS per job after a full GC, and serves the REST app and
 * the hosted MCP server over it. Then each route is loaded on every size in turn, three rounds in
 * alternating order, the median kept: the machine's drift touches every size alike.
 */
export async function measureServingAtScale({
  load,
  jobs,
  nodeFlags = [],
  cpuProfDir = null,
  progress,
}: MeasureServingAtScaleParameters): Promise<ServingAtScaleResult> {
  const childFlags = ['--expose-gc', ...nodeFlags]
  if (cpuProfDir !== null) {
    mkdirSync(cpuProfDir, { recursive: true })
    childFlags.push('--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`)
  }
  const before = loadavg()
  const servers: Server[] = []
  try {
    // One fill at a time: each has the machine's share to itself, and its heap is its own.
    for (const size of jobs) {
      progress(`serving at scale: filling a store with ${size.toLocaleString('en-US')} jobs`)
      const child = spawnBenchChild<ServeFilledStoreMessage>({ entry: 'bench/serveFilledStore.ts', options: { jobs: size, mcp: true }, nodeFlags: childFlags, name: `store of ${size}` })
      servers.push({ child, listening: await child.next('listening', 1_800_000) })
    }
    const targetsOf = ({ listening }: Server): { origin: string; target: LoadTarget }[] => {
      const jobId = BigInt(listening.sampleJobId)
      // /healthz left out: a store with no poll behind it is not ready. /v1/services holds no job, a control.
      const rest = restTargets({ jobId, seller: listening.busiestSeller }).filter(({ name }) => name !== 'GET /healthz')
      const [getJob] = mcpTargets(listening.mcpUrl as string, { mode: 'in-process store', jobId })
      return [...rest.map((target) => ({ origin: listening.restUrl, target })), { origin: new URL(listening.mcpUrl as string).origin, target: getJob as LoadTarget }]
    }
    const targets = servers.map(targetsOf)
    const bodyBytes = await Promise.all(
      targets.map((ofServer) => Promise.all(ofServer.map(async ({ origin, target }) => Buffer.byteLength((await fetchFirstAnswer(origin, target)).body)))),
    )
    const names = (targets[0] ?? []).map(({ target }) => target.name)
    const runs: RunLoadReturnType[][][] = names.map(() => servers.map(() => []))
    for (let round = 0; round < rounds; round += 1) {
      progress(`serving at scale: round ${round + 1} of ${rounds}, ${names.length} routes on ${servers.length} stores (${load.warmupSec} s warm-up + ${load.durationSec} s each)`)
      const routeOrder = names.map((_name, index) => index)
      const serverOrder = servers.map((_server, index) => index)
      if (round % 2 === 1) {
        routeOrder.reverse()
        serverOrder.reverse()
      }
      for (const route of routeOrder) {
        for (const index of serverOrder) {
          const { origin, target } = targets[index]?.[route] as { origin: string; target: LoadTarget }
          const { child } = servers[index] as Server
          const run = await runLoad({ url: `${origin}${target.path}`, method: target.method, body: target.body, headers: target.headers, ...load, serverCpu: () => readChildCpu(child) })
          if (run.failures > 0) throw new BenchChildError(`serving at scale: ${target.name} at ${jobs[index]} jobs had ${run.failures} failed requests.`)
          runs[route]?.[index]?.push(run)
        }
      }
    }
    const routes = names.map((name, route) => ({
      name,
      figures: servers.map((_server, index) => {
        const measured = runs[route]?.[index] ?? []
        return {
          requestsPerSec: median(measured.map((run) => run.requestsPerSec)),
          p50Ms: median(measured.map((run) => run.p50Ms)),
          p99Ms: median(measured.map((run) => run.p99Ms)),
          cpuMicrosPerRequest: median(measured.map((run) => run.cpuMicrosPerRequest)),
          bodyBytes: bodyBytes[index]?.[route] ?? 0,
        }
      }),
    }))
    const stores = servers.map(({ listening }, index) => ({
      jobs: jobs[index] as number,
      fillMs: listening.fillMs,
      heapBytesPerJob: listening.heapBytesPerJob,
      rssBytesPerJob: listening.rssBytesPerJob,
    }))
    return {
      setup:
        'the REST app (buildApp) and the hosted MCP server (in the same process, reading the store) on real sockets, over a store ' +
        'filled directly with the bench market (fillSyntheticStore), no chain; the store changes before every REST request (no kept body, no 304); ' +
        `autocannon, ${load.connections} connections, ${load.warmupSec} s warm-up + ${load.durationSec} s, median of ${rounds} rounds; ` +
        `servers run with ${nodeFlags.length === 0 ? "Node's default flags" : nodeFlags.join(' ')}`,
      stores,
      routes,
      loadAverage: { before, after: loadavg() },
      targets: evaluateServingTargets({ stores, routes }),
    }
  } finally {
    for (const { child } of servers.reverse()) await child.stop()
  }
}

/** Heap per job at the last size, and each route's p50 and p99 at the last size against the first. */
export function evaluateServingTargets({ stores, routes }: Pick<ServingAtScaleResult, 'stores' | 'routes'>): TargetCheck[] {
  const first = 0
  const last = stores.length - 1
  const lastStore = stores[last] as ServingScaleStore
  const jobs = (index: number): string => (stores[index] as ServingScaleStore).jobs.toLocaleString('en-US')
  const checks: TargetCheck[] = [
    {
      name: `heap per job at ${jobs(last)} jobs`,
      target: `<= ${heapTargetBytesPerJob.toLocaleString('en-US')} B`,
      actual: `${Math.round(lastStore.heapBytesPerJob).toLocaleString('en-US')} B`,
      met: lastStore.heapBytesPerJob <= heapTargetBytesPerJob,
    },
  ]
  for (const { name, figures } of routes) {
    for (const percentile of ['p50Ms', 'p99Ms'] as const) {
      const at = (figures[first] as ServingScaleFigures)[percentile]
      const atLast = (figures[last] as ServingScaleFigures)[percentile]
      checks.push({
        name: `${name} ${percentile.slice(0, 3)} at ${jobs(last)} vs ${jobs(first)}`,
        target: `<= ${latencyTargetRatio} × (or +${latencyResolutionMs} ms)`,
        actual: `${atLast} / ${at} ms (${(atLast / at).toFixed(2)} ×)`,
        met: atLast <= at * latencyTargetRatio || atLast - at <= latencyResolutionMs,
      })
    }
  }
  return checks
}

/** The stage's tables, in Markdown: the stores side by side, each route's latency and cost per size, and the targets. */
export function printServingAtScale({ setup, stores, routes, loadAverage, targets }: ServingAtScaleResult): string {
  const int = (value: number): string => Math.round(value).toLocaleString('en-US')
  const sizes = stores.map(({ jobs }) => `${int(jobs)} jobs`)
  const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`
  const byStore = (cell: (figures: ServingScaleFigures) => string) => (figures: readonly ServingScaleFigures[]) => figures.map(cell)
  const latency = byStore(({ p50Ms, p99Ms }) => `${p50Ms} / ${p99Ms}`)
  const cost = byStore(({ requestsPerSec, cpuMicrosPerRequest }) => `${int(requestsPerSec)} / ${int(cpuMicrosPerRequest)}`)
  return [
    `Serving at ${stores.map(({ jobs }) => int(jobs)).join(', ')} jobs: ${setup}.`,
    `Load average ${loadAverage.before.map((value) => value.toFixed(1)).join(' ')} before the fills, ${loadAverage.after.map((value) => value.toFixed(1)).join(' ')} after the last load.`,
    '',
    row(['', ...sizes]),
    row(['---', ...sizes.map(() => '---')]),
    row(['store filled in', ...stores.map(({ fillMs }) => `${(fillMs / 1000).toFixed(1)} s`)]),
    row(['heap per job / RSS per job (after a full GC)', ...stores.map(({ heapBytesPerJob, rssBytesPerJob }) => `${int(heapBytesPerJob)} B / ${int(rssBytesPerJob)} B`)]),
    ...routes.map(({ name, figures }) => row([`${name} (${((figures[0]?.bodyBytes ?? 0) / 1024).toFixed(1)} KB) p50 / p99 ms`, ...latency(figures)])),
    ...routes.map(({ name, figures }) => row([`${name} req/s / server CPU µs per request`, ...cost(figures)])),
    '',
    ...table(
      ['target', 'wanted', 'measured', 'met'],
      targets.map(({ name, target, actual, met }) => [name, target, actual, met ? 'yes' : 'NO']),
    ),
  ].join('\n')
}
