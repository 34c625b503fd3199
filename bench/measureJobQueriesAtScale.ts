import { BenchChildError } from '../errors/bench.ts'
import { compareWithCeiling, type CeilingComparison, type LoadSettings, type LoadTarget } from './compareWithCeiling.ts'
import { table } from './printTable.ts'
import { readChildCpu } from './readChildCpu.ts'
import type { ServeFilledStoreMessage } from './serveFilledStore.ts'
import { spawnBenchChild } from './spawnBenchChild.ts'

/** The store size the issue asks the job queries to be measured at. */
export const jobQueriesStoreJobs = 100_000

export type JobQueriesAtScaleResult = {
  jobs: number
  /** How the figures were made, printed above them. */
  setup: string
  fillMs: number
  heapBytesPerJob: number
  pages: CeilingComparison[]
}

/** How deep into the Settled jobs the deep page starts, in jobs (walked with the API's cursor). */
const deepPageAt = 50_000

/**
 * `GET /v1/jobs` pages, unfiltered and filtered, at 100,000 jobs: the REST app on a real socket
 * over a store filled directly (serveFilledStore), each page against a bare server sending the
 * same bytes. A filter is served from the smallest index it names, so each page should cost about
 * what the unfiltered one does.
 */
export async function measureJobQueriesAtScale({ load, jobs = jobQueriesStoreJobs }: { load: LoadSettings; jobs?: number }): Promise<JobQueriesAtScaleResult> {
  const child = spawnBenchChild<ServeFilledStoreMessage>({ entry: 'bench/serveFilledStore.ts', options: { jobs }, nodeFlags: ['--expose-gc'], name: 'filled store' })
  try {
    const { restUrl, seller, buyer, serviceId, heapBytesPerJob, fillMs } = await child.next('listening', 300_000)
    const deepCursor = await walkTo(restUrl, '/v1/jobs?state=3', deepPageAt)
    // A rare filter may match fewer than a page: the whole group is walked then, the worst case.
    const page = (name: string, query: string, least = 50): LoadTarget => ({
      name,
      method: 'GET',
      path: `/v1/jobs?${query}`,
      check: (_status, body) => ((JSON.parse(body) as { count: number }).count >= least ? undefined : `fewer than ${least} jobs`),
    })
    const pages = await compareWithCeiling({
      origin: restUrl,
      serverCpu: () => readChildCpu(child),
      load,
      targets: [
        page('unfiltered', 'limit=50'),
        // Settled jobs only, as the filtered pages mostly hold: their bodies are larger than the unfiltered page's.
        page('Settled (one index, nothing skipped)', 'state=3&limit=50'),
        page("a seller's Settled", `seller=${seller}&state=3&limit=50`),
        page("a buyer's", `buyer=${buyer}&limit=50`),
        page("a buyer's Slashed (rare: ~1,200 of the buyer's jobs walked)", `buyer=${buyer}&state=6&limit=50`, 1),
        page("a service's Disputed or Slashed", `serviceId=${serviceId}&state=5,6&limit=50`),
        page(`Settled, ${deepPageAt.toLocaleString('en-US')} deep`, `state=3&limit=50&cursor=${deepCursor}`),
      ],
    })
    return {
      jobs,
      setup:
        `the REST app (buildApp) on a real socket over a store filled directly with ${jobs.toLocaleString('en-US')} synthetic jobs, no chain ` +
        '(generating a devnet of this size takes 7–12 minutes); the store changes before every request, so no answer is a kept body or a 304',
      fillMs,
      heapBytesPerJob,
      pages,
    }
  } finally {
    await child.stop()
  }
}

/** The cursor after the first `depth` jobs of a list, walked a thousand at a time. */
async function walkTo(origin: string, path: string, depth: number): Promise<string> {
  let cursor: string | null = null
  for (let walked = 0; walked < depth; walked += 1_000) {
    const response = await fetch(`${origin}${path}&limit=1000${cursor === null ? '' : `&cursor=${cursor}`}`)
    const body = (await response.json()) as { nextCursor: string | null }
    if (!response.ok || body.nextCursor === null) throw new BenchChildError(`${path} ended before ${depth} jobs (HTTP ${response.status}).`)
    cursor = body.nextCursor
  }
  return cursor as string
}

/** The stage's table: each page's throughput and CPU beside the bare server's, and against the unfiltered page. */
export function printJobQueriesAtScale({ jobs, setup, fillMs, heapBytesPerJob, pages }: JobQueriesAtScaleResult): string {
  const unfiltered = pages[0] as CeilingComparison
  const rows = pages.map((page) => [
    page.name,
    `${(page.bodyBytes / 1024).toFixed(1)} KB`,
    Math.round(page.ours.requestsPerSec).toLocaleString('en-US'),
    page.ours.p50Ms.toFixed(0),
    page.ours.p99Ms.toFixed(0),
    page.ours.cpuMicrosPerRequest.toFixed(0),
    Math.round(page.ceiling.requestsPerSec).toLocaleString('en-US'),
    `${(page.ratio * 100).toFixed(0)} %`,
    `${((page.ours.cpuMicrosPerRequest / unfiltered.ours.cpuMicrosPerRequest) * 100).toFixed(0)} %`,
  ])
  const headers = ['GET /v1/jobs, 50 a page', 'body', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'bare req/s', 'of bare', 'CPU vs unfiltered']
  return [
    `Job queries at ${jobs.toLocaleString('en-US')} jobs: ${setup}`,
    `store filled in ${(fillMs / 1000).toFixed(1)} s, heap ${Math.round(heapBytesPerJob).toLocaleString('en-US')} B per job`,
    ...table(headers, rows),
  ].join('\n')
}
