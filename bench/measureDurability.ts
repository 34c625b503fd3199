import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { Deployment } from '../config/deployment.ts'
import { startTestPostgres } from '../test/support/startTestPostgres.ts'
import type { BenchClients } from './createBenchClients.ts'
import type { BenchBatchers } from './deployBatchers.ts'
import { measureLag } from './measureLag.ts'
import { percentile } from './percentile.ts'
import type { ServeDurableMessage, ServeDurableOptions } from './serveDurable.ts'
import type { ServeDurableScaleMessage, ServeDurableScaleOptions } from './serveDurableScale.ts'
import { spawnBenchChild, type BenchChild } from './spawnBenchChild.ts'
import { describeLoopDelay, type LoopDelayFigures } from './watchEventLoop.ts'

export type MeasureDurabilityParameters = {
  clients: BenchClients
  deployment: Deployment
  batchers: BenchBatchers
  rpcUrl: string
  /** Jobs settled while the replica's lag is measured. */
  lagJobs: number
  lagPaceMs: number
  progress: (message: string) => void
}

export type DurabilityStart = {
  label: string
  jobs: number
  readyMs: number
  processReadyMs: number
  heapBytesPerJob: number
  rssBytesPerJob: number
  /** From listening to ready: how late the event loop ran while back-filling (or catching up) and serving. */
  loopDelay: LoopDelayFigures
}

export type DurabilityResult = {
  starts: DurabilityStart[]
  /** What the data dir writer's commits cost during its cold back-fill. */
  commits: { commits: number; records: number; seconds: number }
  /** Settlement receipt → served, at the writer and at its read-only replica (ms). */
  lag: { writerP95Ms: number; replicaP95Ms: number; samples: number }
  /** What replicas report in /readyz: from the writer's commit to its being served there (ms). */
  replicaBehindWriter: { p50Ms: number; p95Ms: number; maxMs: number; samples: number }
  /** From the writer's kill -9 to its standby (a second indexer on the database, waiting for the writer lock) ready (ms). */
  standbyTakeoverMs: number
}

/**
 * The durability stage: the market back-filled into a data dir (PGlite) from cold, then a warm
 * restart from it; the same on Postgres with a read-only replica following the writer, whose lag
 * is measured on settlements made while both serve.
 */
export async function measureDurability({ clients, deployment, batchers, rpcUrl, lagJobs, lagPaceMs, progress }: MeasureDurabilityParameters): Promise<DurabilityResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tee-market-bench-data-'))
  const postgres = await startTestPostgres()
  const children: BenchChild<ServeDurableMessage>[] = []
  const serve = async (options: Omit<ServeDurableOptions, 'rpcUrl' | 'deployment' | 'pollIntervalMs'>, label: string): Promise<[BenchChild<ServeDurableMessage>, DurabilityStart, string]> => {
    progress(`durability: ${label}`)
    const child = spawnBenchChild<ServeDurableMessage>({
      entry: 'bench/serveDurable.ts',
      options: { rpcUrl, deployment, pollIntervalMs: 200, ...options } satisfies ServeDurableOptions,
      nodeFlags: ['--expose-gc'],
      name: label,
    })
    children.push(child)
    const ready = await child.next('ready')
    const perJob = (figure: 'heapUsed' | 'rss'): number => Math.round((ready.loaded[figure] - ready.baseline[figure]) / Math.max(1, ready.jobs))
    return [
      child,
      { label, jobs: ready.jobs, readyMs: Math.round(ready.readyMs), processReadyMs: Math.round(ready.processReadyMs), heapBytesPerJob: perJob('heapUsed'), rssBytesPerJob: perJob('rss'), loopDelay: ready.loopDelay },
      ready.restUrl,
    ]
  }
  try {
    const starts: DurabilityStart[] = []
    const [memory, memoryStart] = await serve({}, 'in memory, cold back-fill')
    starts.push(memoryStart)
    await memory.stop()
    const [cold, coldStart, coldUrl] = await serve({ dataDir }, 'data dir, cold back-fill')
    starts.push(coldStart)
    const metrics = await (await fetch(`${coldUrl}/metrics`)).text()
    const sample = (name: string): number => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(metrics)?.[1] ?? Number.NaN)
    const commits = {
      commits: sample('indexer_store_commits_total'),
      records: sample('indexer_store_commit_records_total'),
      seconds: sample('indexer_store_commit_seconds_total'),
    }
    await cold.stop()
    const [warm, warmStart] = await serve({ dataDir }, 'data dir, warm restart')
    starts.push(warmStart)
    await warm.stop()

    const databaseUrl = await postgres.createDatabase('bench')
    const [writer, writerStart, writerUrl] = await serve({ databaseUrl }, 'Postgres writer, cold back-fill')
    starts.push(writerStart)
    const [, replicaStart, replicaUrl] = await serve({ databaseUrl, readOnly: true }, 'Postgres read-only replica, start')
    starts.push(replicaStart)

    progress(`durability: ${lagJobs} settlements seen by the writer and its replica`)
    const behind = new Map<string, number>()
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        const readiness = (await (await fetch(`${replicaUrl}/readyz`)).json()) as { replica?: { revision: string; behindWriterMs: number } }
        if (readiness.replica !== undefined) behind.set(readiness.replica.revision, readiness.replica.behindWriterMs)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })()
    const [writerLag, replicaLag] = await measureLag(clients, {
      deployment,
      batchers,
      jobs: lagJobs,
      paceMs: lagPaceMs,
      observers: [
        { label: 'writer', pollIntervalMs: 200, targetP95Ms: 700, restUrl: writerUrl },
        { label: 'replica', pollIntervalMs: 200, targetP95Ms: 1_700, restUrl: replicaUrl },
      ],
    })
    sampling = false
    await sampler
    const samples = [...behind.values()].sort((a, b) => a - b)
    const standbyTakeoverMs = await measureStandbyTakeover({ databaseUrl, writer, children, rpcUrl, deployment, progress })
    return {
      starts,
      commits,
      lag: { writerP95Ms: writerLag?.p95Ms ?? Number.NaN, replicaP95Ms: replicaLag?.p95Ms ?? Number.NaN, samples: replicaLag?.samples ?? 0 },
      replicaBehindWriter: { p50Ms: percentile(samples, 50), p95Ms: percentile(samples, 95), maxMs: samples.at(-1) ?? Number.NaN, samples: samples.length },
      standbyTakeoverMs,
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()))
    await postgres.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

/**
 * A second indexer on the writer's database waits as its standby (for the writer lock); once
 * Postgres shows it waiting, the writer is killed (-9) and the standby timed to ready: its lock,
 * its load of the tables and its first poll. test/durable/postgres.test.ts checks that it takes
 * over; this is how soon.
 */
async function measureStandbyTakeover({ databaseUrl, writer, children, rpcUrl, deployment, progress }: {
  databaseUrl: string
  writer: BenchChild<ServeDurableMessage>
  children: BenchChild<ServeDurableMessage>[]
  rpcUrl: string
  deployment: Deployment
  progress: (message: string) => void
}): Promise<number> {
  progress('durability: a standby on the Postgres writer\'s database; the writer killed (-9), the standby timed to ready')
  const standby = spawnBenchChild<ServeDurableMessage>({
    entry: 'bench/serveDurable.ts',
    options: { rpcUrl, deployment, pollIntervalMs: 200, databaseUrl } satisfies ServeDurableOptions,
    nodeFlags: ['--expose-gc'],
    name: 'Postgres standby',
  })
  children.push(standby)
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    for (const deadline = Date.now() + 120_000; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
      const { rows } = await client.query<{ waiting: number }>("SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
      if ((rows[0]?.waiting ?? 0) > 0) break
      if (Date.now() > deadline) throw new Error(`The standby did not wait for the writer lock within 120 s: ${standby.output().slice(-2_000)}`)
    }
  } finally {
    await client.end()
  }
  if (writer.pid === undefined) throw new Error('The Postgres writer has no pid.')
  const killedAt = performance.now()
  process.kill(writer.pid, 'SIGKILL')
  await standby.next('ready', 120_000)
  return performance.now() - killedAt
}

export function printDurabilityTable({ starts, commits, lag, replicaBehindWriter, standbyTakeoverMs }: DurabilityResult): string {
  const lines = [
    '| start | jobs | ready (server) | ready (process) | heap per job | RSS per job | event loop until ready, p99 / max |',
    '|---|---|---|---|---|---|---|',
    ...starts.map(
      ({ label, jobs, readyMs, processReadyMs, heapBytesPerJob, rssBytesPerJob, loopDelay }) =>
        `| ${label} | ${jobs.toLocaleString('en-US')} | ${(readyMs / 1000).toFixed(2)} s | ${(processReadyMs / 1000).toFixed(2)} s | ${heapBytesPerJob.toLocaleString('en-US')} B | ${rssBytesPerJob.toLocaleString('en-US')} B | ${loopDelay.p99Ms.toFixed(0)} / ${loopDelay.maxMs.toFixed(0)} ms |`,
    ),
    '',
    ...starts.filter(({ label }) => label.includes('cold')).map(({ label, loopDelay }) => `Event loop from listening to ready, ${label}: ${describeLoopDelay(loopDelay)}.`),
    '',
    `Data dir commits during the cold back-fill: ${commits.commits} commits, ${commits.records.toLocaleString('en-US')} records, ${commits.seconds.toFixed(2)} s in all (${commits.commits === 0 ? '-' : ((commits.seconds * 1000) / commits.commits).toFixed(1)} ms per commit, ${commits.records === 0 ? '-' : ((commits.seconds * 1e6) / commits.records).toFixed(0)} µs per record).`,
    `Settlement → served (p95, ${lag.samples} settlements): writer ${Math.round(lag.writerP95Ms)} ms, read-only replica ${Math.round(lag.replicaP95Ms)} ms.`,
    `Replica behind the writer's commit (/readyz, ${replicaBehindWriter.samples} commits): p50 ${replicaBehindWriter.p50Ms} ms, p95 ${replicaBehindWriter.p95Ms} ms, max ${replicaBehindWriter.maxMs} ms (target p95 ≤ 1,000 ms).`,
    `Standby ready ${Math.round(standbyTakeoverMs).toLocaleString('en-US')} ms after the Postgres writer's kill -9 (the target the test used to assert: under 10,000 ms).`,
  ]
  return lines.join('\n')
}

/** The durable store at scale is measured on a synthetic market of this many jobs (no chain holds it here). */
export const durableScaleJobs = 100_000

export type DurableScaleRow = {
  kept: string
  /** The store's heap once filled window by window (the indexer's way), over the jobs. */
  writtenHeapBytesPerJob: number
  commits: number
  commitP50Ms: number
  commitP95Ms: number
  commitMaxMs: number
  /** A restart: opening the database, then loading the index into a new store. */
  openMs: number
  loadMs: number
  /** Of the load: the main thread's part, decoding each page and putting it in the store (the rest is waiting on the database). */
  applyMs: number
  loadedHeapBytesPerJob: number
  loadedRssBytesPerJob: number
}

export type DurableScaleResult = { jobs: number; window: number; memoryHeapBytesPerJob: number; rows: DurableScaleRow[] }

/**
 * The durable store at `jobs` synthetic jobs, filled in windows of `window` jobs with a commit after
 * each (as a back-fill of a dense market commits), then loaded by a new process (a warm restart),
 * into a data dir and into Postgres; and the same market in memory only, for the heap per job today.
 */
export async function measureDurableScale({ jobs = durableScaleJobs, window = 1_000, progress }: { jobs?: number; window?: number; progress: (message: string) => void }): Promise<DurableScaleResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tee-market-bench-scale-'))
  const postgres = await startTestPostgres()
  const run = async <type extends ServeDurableScaleMessage['type']>(options: ServeDurableScaleOptions, type: type, label: string) => {
    progress(`durability at ${jobs.toLocaleString('en-US')} jobs: ${label}`)
    const child = spawnBenchChild<ServeDurableScaleMessage>({ entry: 'bench/serveDurableScale.ts', options, nodeFlags: ['--expose-gc'], name: label })
    try {
      return await child.next(type)
    } finally {
      await child.stop()
    }
  }
  try {
    const memory = await run({ mode: 'write', target: { memory: true }, jobs, window }, 'written', 'in memory only')
    const rows: DurableScaleRow[] = []
    for (const [kept, target] of [
      ['data dir (PGlite)', { dataDir }],
      ['Postgres', { databaseUrl: postgres.url }],
    ] as const) {
      const written = await run({ mode: 'write', target, jobs, window }, 'written', `${kept}: filled and committed window by window`)
      const loaded = await run({ mode: 'load', target }, 'loaded', `${kept}: loaded by a new process`)
      const sorted = [...written.commitMs].sort((a, b) => a - b)
      rows.push({
        kept,
        writtenHeapBytesPerJob: written.heapBytesPerJob,
        commits: sorted.length,
        commitP50Ms: percentile(sorted, 50),
        commitP95Ms: percentile(sorted, 95),
        commitMaxMs: sorted.at(-1) ?? Number.NaN,
        openMs: loaded.openMs,
        loadMs: loaded.loadMs,
        applyMs: loaded.applyMs,
        loadedHeapBytesPerJob: loaded.heapBytesPerJob,
        loadedRssBytesPerJob: loaded.rssBytesPerJob,
      })
    }
    return { jobs, window, memoryHeapBytesPerJob: memory.heapBytesPerJob, rows }
  } finally {
    await postgres.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

export function printDurableScaleTable({ jobs, window, memoryHeapBytesPerJob, rows }: DurableScaleResult): string {
  const ms = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`
  return [
    `Durable store at ${jobs.toLocaleString('en-US')} synthetic jobs (no chain: fillSyntheticStore), committed every ${window.toLocaleString('en-US')} jobs; in memory only the store takes ${memoryHeapBytesPerJob.toLocaleString('en-US')} B of heap per job.`,
    '',
    '| kept in | heap per job, written | commits | commit p50 / p95 / max | restart: open | restart: load (of it, decode and apply) | heap per job, loaded | RSS per job, loaded |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.kept} | ${row.writtenHeapBytesPerJob.toLocaleString('en-US')} B | ${row.commits} | ${ms(row.commitP50Ms)} / ${ms(row.commitP95Ms)} / ${ms(row.commitMaxMs)} | ${ms(row.openMs)} | ${ms(row.loadMs)} (${ms(row.applyMs)}) | ${row.loadedHeapBytesPerJob.toLocaleString('en-US')} B | ${row.loadedRssBytesPerJob.toLocaleString('en-US')} B |`,
    ),
  ].join('\n')
}
