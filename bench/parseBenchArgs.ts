import { parseArgs } from 'node:util'
import { BenchArgumentError } from '../errors/bench.ts'

/** Stages a run may leave out (generation, back-fill and memory always run: the others need them). */
export const skippableStages = ['lag', 'rest', 'mcp', 'observability', 'tls', 'fullnode', 'jobqueries', 'durability', 'servingscale', 'ratelimit', 'slowclients', 'feed'] as const
export type SkippableStage = (typeof skippableStages)[number]

/** The nodes the bench can build its chain on. */
export const benchNodes = ['hardhat', 'anvil'] as const
export type BenchNode = (typeof benchNodes)[number]

/** The store sizes the issue asks serving and heap to be measured at (a quick run stops at 100,000). */
export const servingScaleJobs = [10_000, 100_000, 1_000_000] as const

export type BenchOptions = {
  quick: boolean
  /** Stages left out of this run, for measuring one part quickly; a full report skips none. */
  skip: readonly SkippableStage[]
  /** Only measure what request metrics and access logs cost (no devnet, no market: a minute). */
  observabilityOnly: boolean
  /** Only measure what the per-client request limiter costs (no devnet, no market: a minute). */
  rateLimitOnly: boolean
  /** Only measure what TLS costs per request (no devnet, no market: about two minutes). */
  tlsOnly: boolean
  /** Only one TEE verification and one collateral fetch from a local PCS (no devnet: seconds). */
  teeOnly: boolean
  /** Only measure the job queries at 100,000 jobs over a store filled directly (no devnet: a few minutes). */
  jobQueriesOnly: boolean
  /** Only the durable store at 100,000 synthetic jobs (no chain). */
  durabilityOnly: boolean
  /** Only /v1/stats latency during slowloris against the REST app (no chain: about 15 s). */
  slowClientsOnly: boolean
  /** Only serving and heap at each of `servingJobs` synthetic jobs (no chain). */
  servingScaleOnly: boolean
  /** Only the live feed's stage: the market is generated (`jobs`), the other stages left out. */
  feedOnly: boolean
  /** Streams the live feed's stage opens on one indexer (default 1,000). */
  feedStreams: number
  /** Jobs that stage creates while they are open, one every `feedPaceMs` (200 ms). */
  feedChanges: number
  feedPaceMs: number
  /** Rounds of REST without and with the streams open (default 2; a quick run 1). */
  feedRounds: number
  /** Store sizes of the serving-at-scale stage: the first is the baseline, the last the target size. */
  servingJobs: number[]
  /** Node flags for that stage's servers, e.g. `--max-semi-space-size=64` (none by default: Node's own). */
  servingNodeFlags: string[]
  jobs: number
  /**
   * The chain's node: hardhat (the devnet's, by default) or anvil, which holds a job in less than
   * half the memory and mines it five times as fast (how a million-job market fits this machine).
   */
  node: BenchNode
  /** Measured seconds per endpoint (after the warm-up). */
  durationSec: number
  warmupSec: number
  connections: number
  lagJobs: number
  lagPaceMs: number
  /** The default poll interval, and the fastest the bench tries. */
  defaultPollMs: number
  fastPollMs: number
  /** Blocks of history the full-node stage reads through a public node's limits (default 2,000,000). */
  fullNodeBlocks: bigint
  /**
   * Milliseconds the counting proxy adds before each of the node's answers during the back-fill
   * (default 0): a public node answers in tens to hundreds, a local one in a few.
   */
  rpcLatencyMs: number
  /** Run the server under test with `--cpu-prof`, profiles in this directory. */
  cpuProfDir: string | null
  resultsPath: string
}

export type ParseBenchArgsReturnType = BenchOptions

const usage =
  'Usage: npm run bench -- [--quick] [--jobs N] [--node hardhat|anvil] [--duration S] [--warmup S] [--connections C] ' +
  '[--lag-jobs N] [--lag-pace MS] [--fast-poll MS] [--full-node-blocks N] [--rpc-latency MS] [--cpu-prof DIR] [--out FILE] ' +
  `[--skip ${skippableStages.join(',')}] [--observability-only] [--rate-limit-only] [--tls-only] [--tee-only] [--job-queries-only] [--durability-only] [--slow-clients-only] [--serving-scale-only] [--feed-only] [--feed-streams N] [--feed-changes N] [--serving-jobs N,N,...] [--serving-node-flags="--flag ..."]`

/** `npm run bench` options; `--quick` changes the defaults (2,000 jobs, 3 s per endpoint), explicit flags win. */
export function parseBenchArgs(argv: readonly string[]): ParseBenchArgsReturnType {
  let values
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        quick: { type: 'boolean', default: false },
        jobs: { type: 'string' },
        node: { type: 'string' },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        connections: { type: 'string' },
        'lag-jobs': { type: 'string' },
        'lag-pace': { type: 'string' },
        'fast-poll': { type: 'string' },
        'full-node-blocks': { type: 'string' },
        'rpc-latency': { type: 'string' },
        'cpu-prof': { type: 'string' },
        out: { type: 'string' },
        skip: { type: 'string' },
        'observability-only': { type: 'boolean', default: false },
        'rate-limit-only': { type: 'boolean', default: false },
        'tls-only': { type: 'boolean', default: false },
        'tee-only': { type: 'boolean', default: false },
        'job-queries-only': { type: 'boolean', default: false },
        'durability-only': { type: 'boolean', default: false },
        'slow-clients-only': { type: 'boolean', default: false },
        'serving-scale-only': { type: 'boolean', default: false },
        'feed-only': { type: 'boolean', default: false },
        'feed-streams': { type: 'string' },
        'feed-changes': { type: 'string' },
        'serving-jobs': { type: 'string' },
        'serving-node-flags': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (cause) {
    throw new BenchArgumentError(`${cause instanceof Error ? cause.message : String(cause)} ${usage}`, { cause })
  }
  const quick = values.quick === true
  const number = (flag: string, value: string | undefined, fallback: number, min: number): number => {
    if (value === undefined) return fallback
    const parsed = Number(value)
    if (!Number.isFinite(parsed) || parsed < min) throw new BenchArgumentError(`--${flag} must be a number of at least ${min}, got "${value}". ${usage}`)
    return parsed
  }
  const skip = (values.skip ?? '').split(',').filter((stage) => stage !== '')
  for (const stage of skip) {
    if (!(skippableStages as readonly string[]).includes(stage))
      throw new BenchArgumentError(`--skip takes stages from ${skippableStages.join(', ')}, got "${stage}". ${usage}`)
  }
  const servingJobs = values['serving-jobs'] === undefined ? servingScaleJobs.slice(0, quick ? 2 : 3) : values['serving-jobs'].split(',').map((value) => Math.floor(number('serving-jobs', value, 0, 1)))
  const node = values.node ?? 'hardhat'
  if (!(benchNodes as readonly string[]).includes(node)) throw new BenchArgumentError(`--node takes ${benchNodes.join(' or ')}, got "${node}". ${usage}`)
  if (servingJobs.length < 2) throw new BenchArgumentError(`--serving-jobs takes two sizes or more (the first is the baseline), got "${values['serving-jobs']}". ${usage}`)
  return {
    quick,
    skip: skip as SkippableStage[],
    observabilityOnly: values['observability-only'] === true,
    rateLimitOnly: values['rate-limit-only'] === true,
    tlsOnly: values['tls-only'] === true,
    teeOnly: values['tee-only'] === true,
    jobQueriesOnly: values['job-queries-only'] === true,
    durabilityOnly: values['durability-only'] === true,
    slowClientsOnly: values['slow-clients-only'] === true,
    servingScaleOnly: values['serving-scale-only'] === true,
    feedOnly: values['feed-only'] === true,
    feedStreams: Math.floor(number('feed-streams', values['feed-streams'], 1_000, 1)),
    feedChanges: Math.floor(number('feed-changes', values['feed-changes'], quick ? 30 : 100, 1)),
    feedPaceMs: 200,
    feedRounds: quick ? 1 : 2,
    servingJobs,
    servingNodeFlags: (values['serving-node-flags'] ?? '').split(' ').filter((flag) => flag !== ''),
    jobs: Math.floor(number('jobs', values.jobs, quick ? 2_000 : 10_000, 1)),
    node: node as BenchNode,
    durationSec: number('duration', values.duration, quick ? 3 : 10, 1),
    warmupSec: number('warmup', values.warmup, quick ? 0.5 : 2, 0),
    connections: Math.floor(number('connections', values.connections, 64, 1)),
    lagJobs: Math.floor(number('lag-jobs', values['lag-jobs'], quick ? 100 : 200, 1)),
    lagPaceMs: number('lag-pace', values['lag-pace'], quick ? 50 : 100, 1),
    defaultPollMs: 3_000,
    fastPollMs: Math.floor(number('fast-poll', values['fast-poll'], 100, 1)),
    fullNodeBlocks: BigInt(Math.floor(number('full-node-blocks', values['full-node-blocks'], 2_000_000, 10_000))),
    rpcLatencyMs: number('rpc-latency', values['rpc-latency'], 0, 0),
    cpuProfDir: values['cpu-prof'] ?? null,
    resultsPath: values.out ?? 'bench/results.json',
  }
}
