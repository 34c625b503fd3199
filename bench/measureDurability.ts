import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Deployment } from '../config/deployment.ts'
import { startTestPostgres } from '../test/support/startTestPostgres.ts'
import type { BenchClients } from './createBenchClients.ts'
import type { BenchBatchers } from './deployBatchers.ts'
import { measureLag } from './measureLag.ts'
import { percentile } from './percentile.ts'
import type { ServeDurableMessage, ServeDurableOptions } from './serveDurable.ts'
import { spawnBenchChild, type BenchChild } from './spawnBenchChild.ts'

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
}

export type DurabilityResult = {
  starts: DurabilityStart[]
  /** What the data dir writer's commits cost during its cold back-fill. */
  commits: { commits: number; records: number; seconds: number }
  /** Settlement receipt → served, at the writer and at its read-only replica (ms). */
  lag: { writerP95Ms: number; replicaP95Ms: number; samples: number }
  /** What replicas report in /readyz: from the writer's commit to its being served there (ms). */
  replicaBehindWriter: { p50Ms: number; p95Ms: number; maxMs: number; samples: number }
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
      { label, jobs: ready.jobs, readyMs: Math.round(ready.readyMs), processReadyMs: Math.round(ready.processReadyMs), heapBytesPerJob: perJob('heapUsed'), rssBytesPerJob: perJob('rss') },
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
    const [, writerStart, writerUrl] = await serve({ databaseUrl }, 'Postgres writer, cold back-fill')
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
    return {
      starts,
      commits,
      lag: { writerP95Ms: writerLag?.p95Ms ?? Number.NaN, replicaP95Ms: replicaLag?.p95Ms ?? Number.NaN, samples: replicaLag?.samples ?? 0 },
      replicaBehindWriter: { p50Ms: percentile(samples, 50), p95Ms: percentile(samples, 95), maxMs: samples.at(-1) ?? Number.NaN, samples: samples.length },
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()))
    await postgres.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

export function printDurabilityTable({ starts, commits, lag, replicaBehindWriter }: DurabilityResult): string {
  const lines = [
    '| start | jobs | ready (server) | ready (process) | heap per job | RSS per job |',
    '|---|---|---|---|---|---|',
    ...starts.map(
      ({ label, jobs, readyMs, processReadyMs, heapBytesPerJob, rssBytesPerJob }) =>
        `| ${label} | ${jobs.toLocaleString('en-US')} | ${(readyMs / 1000).toFixed(2)} s | ${(processReadyMs / 1000).toFixed(2)} s | ${heapBytesPerJob.toLocaleString('en-US')} B | ${rssBytesPerJob.toLocaleString('en-US')} B |`,
    ),
    '',
    `Data dir commits during the cold back-fill: ${commits.commits} commits, ${commits.records.toLocaleString('en-US')} records, ${commits.seconds.toFixed(2)} s in all (${commits.commits === 0 ? '-' : ((commits.seconds * 1000) / commits.commits).toFixed(1)} ms per commit, ${commits.records === 0 ? '-' : ((commits.seconds * 1e6) / commits.records).toFixed(0)} µs per record).`,
    `Settlement → served (p95, ${lag.samples} settlements): writer ${lag.writerP95Ms} ms, read-only replica ${lag.replicaP95Ms} ms.`,
    `Replica behind the writer's commit (/readyz, ${replicaBehindWriter.samples} commits): p50 ${replicaBehindWriter.p50Ms} ms, p95 ${replicaBehindWriter.p95Ms} ms, max ${replicaBehindWriter.maxMs} ms (target p95 ≤ 1,000 ms).`,
  ]
  return lines.join('\n')
}
