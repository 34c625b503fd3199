import type { DurabilityResult, DurableScaleResult } from './measureDurability.ts'
import type { CeilingComparison } from './compareWithCeiling.ts'
import type { TargetCheck } from './evaluateTargets.ts'
import type { GenerateJobsReturnType } from './generateJobs.ts'
import type { BackfillResult } from './measureBackfill.ts'
import type { FeedResult } from './measureFeed.ts'
import type { FullNodeResult } from './measureFullNode.ts'
import type { JobQueriesAtScaleResult } from './measureJobQueriesAtScale.ts'
import type { LagResult } from './measureLag.ts'
import type { MemoryResult } from './measureMemory.ts'
import type { ObservabilityCost } from './measureObservability.ts'
import type { RateLimitCost } from './measureRateLimit.ts'
import type { ServingAtScaleResult } from './measureServingAtScale.ts'
import type { SlowClientsResult } from './measureSlowClients.ts'
import type { TlsCost } from './measureTls.ts'
import type { BenchOptions } from './parseBenchArgs.ts'
import type { FirstTeeRoundResult } from './awaitFirstTeeRound.ts'

/** Everything one `npm run bench` measured; written to bench/results.json (bigints as strings). */
export type BenchResults = {
  note: string
  startedAt: string
  durationSec: number
  machine: { cpus: number; cpuModel: string; loadAverage: number[]; node: string }
  options: BenchOptions
  /** Without the batchers, which are live handles. */
  generation: Omit<GenerateJobsReturnType, 'batchers'>
  backfill: BackfillResult
  lag: LagResult[]
  /** The server under test's first round of TEE checks after its back-fill; the stages after it run beside the checking. */
  tee: FirstTeeRoundResult
  rest: CeilingComparison[]
  mcp: CeilingComparison[]
  memory: MemoryResult
  /** What request metrics and access logs cost per request (see measureObservability). */
  observability: ObservabilityCost[]
  /** What the per-client request limiter costs per request, under and over its limit (see measureRateLimit). */
  rateLimit: RateLimitCost[]
  /** What TLS costs per request, HTTP/1.1 and HTTP/2, beside plain HTTP (see measureTls). */
  tls: TlsCost[]
  /** /v1/stats latency during slowloris against the REST app, and how soon the hostile sockets closed; null when skipped. */
  slowClients: SlowClientsResult | null
  /** A mainnet-sized history through a public full node's limits; null when skipped. */
  fullNode: FullNodeResult | null
  /** The durable store: cold and warm starts, commit cost, replica lag (null when skipped). */
  durability: DurabilityResult | null
  /** The durable store at 100,000 synthetic jobs: commit cost, a restart's load, heap per job (null when skipped). */
  durableScale: DurableScaleResult | null
  /** `GET /v1/jobs` pages at 100,000 jobs over a store filled directly; null when skipped. */
  jobQueries: JobQueriesAtScaleResult | null
  /** Heap and serving latency at 10,000, 100,000 and 1,000,000 jobs over stores filled directly; null when skipped. */
  servingScale: ServingAtScaleResult | null
  /** The live feed with 1,000 streams open on one indexer: delivery delays, memory, CPU, REST beside; null when skipped. */
  feed: FeedResult | null
  targets: TargetCheck[]
}
