import type { Stats } from '../contract/stats.ts'
import type { BenchChild } from './spawnBenchChild.ts'
import type { GenerateJobsReturnType } from './generateJobs.ts'
import type { ServeIndexerMessage } from './serveIndexer.ts'
import type { StartCountingProxyReturnType } from './startCountingProxy.ts'
import type { LoopDelayFigures } from './watchEventLoop.ts'

export type MeasureBackfillParameters = {
  /** Counts the server's RPC traffic; reset before the server was started. */
  proxy: StartCountingProxyReturnType
  generated: GenerateJobsReturnType
  /** Milliseconds the proxy adds to each answer, for the report. */
  addedLatencyMs: number
}

export type BackfillResult = {
  jobs: number
  events: number
  seconds: number
  jobsPerSec: number
  eventsPerSec: number
  /** HTTP requests to the node (a JSON-RPC batch counts once). */
  httpRequests: number
  /** JSON-RPC calls inside them. */
  rpcCalls: number
  /** Requests sent while none was in flight: each waits out the node's latency in turn (see startCountingProxy). */
  roundTrips: number
  /** Milliseconds the proxy added to each answer (`--rpc-latency`). */
  addedLatencyMs: number
  httpRequestsPerJob: number
  rpcCallsPerJob: number
  methods: Record<string, number>
  /** How late the server's event loop ran a 10 ms timer while back-filling (p50, p99, max), and what held it. */
  loopDelay: LoopDelayFigures
  /** The indexed counters equal what the generator planned. */
  consistent: boolean
  /** What differs, when not consistent. */
  mismatch: string | null
}

export type MeasureBackfillReturnType = {
  result: BackfillResult
  /** The `backfilled` report, which also carries the memory figures. */
  report: Extract<ServeIndexerMessage, { type: 'backfilled' }>
  restUrl: string
  mcpUrl: string | null
}

/** Ten minutes, and 3 ms more a job: a million jobs back-fill in about 13 minutes (800 µs a job) here. */
function backfillTimeoutMs(jobs: number): number {
  return 600_000 + jobs * 3
}

/**
 * Waits for the fresh server to reach the head, then checks what it indexed against the plan
 * through `/v1/stats`. The time is the indexer's own (from its start to the end of the back-fill).
 */
export async function measureBackfill(
  server: BenchChild<ServeIndexerMessage>,
  { proxy, generated, addedLatencyMs }: MeasureBackfillParameters,
): Promise<MeasureBackfillReturnType> {
  const report = await server.next('backfilled', backfillTimeoutMs(generated.jobs))
  const counts = proxy.counts()
  const { restUrl, mcpUrl } = await server.next('listening')

  const stats = (await (await fetch(`${restUrl}/v1/stats`)).json()) as Stats
  const { outcomes } = generated
  const expected = {
    services: generated.services,
    total: generated.jobs,
    settled: outcomes.settled + outcomes.disputed + outcomes.slashed + outcomes.disputeFailed,
    expired: outcomes.expired,
    slashed: outcomes.slashed,
  }
  const actual = { services: stats.services, ...stats.jobs }
  const differences = (Object.keys(expected) as (keyof typeof expected)[])
    .filter((key) => expected[key] !== actual[key])
    .map((key) => `${key}: expected ${expected[key]}, indexed ${actual[key]}`)

  const seconds = report.backfillMs / 1000
  return {
    report,
    restUrl,
    mcpUrl,
    result: {
      jobs: report.jobs,
      events: generated.events,
      seconds,
      jobsPerSec: report.jobs / seconds,
      eventsPerSec: generated.events / seconds,
      httpRequests: counts.httpRequests,
      rpcCalls: counts.rpcCalls,
      roundTrips: counts.roundTrips,
      addedLatencyMs,
      httpRequestsPerJob: counts.httpRequests / report.jobs,
      rpcCallsPerJob: counts.rpcCalls / report.jobs,
      methods: counts.methods,
      loopDelay: report.loopDelay,
      consistent: differences.length === 0,
      mismatch: differences.length === 0 ? null : differences.join('; '),
    },
  }
}
