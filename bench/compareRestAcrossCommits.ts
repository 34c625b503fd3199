import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { BaseError } from '../errors/BaseError.ts'
import { BenchArgumentError } from '../errors/bench.ts'
import { awaitFirstTeeRound, type FirstTeeRoundResult } from './awaitFirstTeeRound.ts'
import { fetchFirstAnswer, type LoadTarget } from './compareWithCeiling.ts'
import { generateJobs } from './generateJobs.ts'
import { restTargets } from './measureRest.ts'
import { median } from './percentile.ts'
import { readChildCpu } from './readChildCpu.ts'
import { runLoad, type RunLoadReturnType } from './runLoad.ts'
import type { ServeIndexerMessage, ServeIndexerOptions } from './serveIndexer.ts'
import { spawnBenchChild, type BenchChild } from './spawnBenchChild.ts'
import { startBenchAttestations } from './startBenchAttestations.ts'
import { startBenchDevnet } from './startBenchDevnet.ts'

/**
 * `npx tsx bench/compareRestAcrossCommits.ts --old DIR [--jobs N] [--rounds N] [--duration S]
 * [--warmup S] [--connections C] [--only PATH,...] [--out FILE]`: the REST rows of `npm run bench` for the server
 * under test of another checkout (`--old`, e.g. a worktree of an older commit, its own
 * bench/serveIndexer.ts and code) and of this one (checking every service's TEE, as npm start
 * does), over one chain: one market generated once (the TEE records and quotes of this
 * checkout's bench devnet), both servers back-filled from it and up at once, then each endpoint
 * loaded on one and the other in turn, the order flipped each round, so that the machine's other
 * work falls on both alike. Prints each round's figures and their medians; writes them as JSON.
 */
const progress = (message: string): void => void process.stderr.write(`compare: ${message}\n`)

type Side = 'old' | 'new'
type Row = { name: string; path: string; rounds: Record<Side, RunLoadReturnType[]> }

/** What to stop at the end, last started first: the devnet, the attestation server, the two servers. */
const started: (() => Promise<void>)[] = []

try {
  const { values } = parseArgs({
    options: {
      old: { type: 'string' },
      jobs: { type: 'string', default: '2000' },
      rounds: { type: 'string', default: '5' },
      duration: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '1' },
      connections: { type: 'string', default: '64' },
      /** Only the endpoints whose path starts with one of these (comma-separated), e.g. `/v1/stats,/healthz`. */
      only: { type: 'string' },
      out: { type: 'string', default: 'bench/compare-rest.json' },
    },
  })
  if (values.old === undefined) throw new BenchArgumentError('--old <checkout> is required: the folder of the other commit (a worktree with its node_modules).')
  const oldDir = resolve(values.old)
  const [jobs, rounds, durationSec, warmupSec, connections] = [values.jobs, values.rounds, values.duration, values.warmup, values.connections].map(Number) as [number, number, number, number, number]
  const load = { connections, durationSec, warmupSec }

  progress(`starting a devnet and generating ${jobs} jobs`)
  const devnet = await startBenchDevnet({ node: 'hardhat' })
  started.push(devnet.stop)
  const generation = await generateJobs(devnet.clients, { deployment: devnet.deployment, jobs, onProgress: progress })
  const attestations = await startBenchAttestations(devnet.clients.public, { deployment: devnet.deployment, teeRoot: devnet.teeRoot, batchers: generation.batchers })
  started.push(attestations.stop)

  const serve: ServeIndexerOptions = { rpcUrl: devnet.rpcUrl, wsRpcUrl: null, deployment: devnet.deployment, startBlock: devnet.deployment.deployBlock, pollIntervalMs: 3_000, mcp: false }
  const start = (side: Side): BenchChild<ServeIndexerMessage> => {
    const child = spawnBenchChild<ServeIndexerMessage>({
      entry: 'bench/serveIndexer.ts',
      cwd: side === 'old' ? oldDir : undefined,
      options: side === 'old' ? serve : { ...serve, teeChecking: true },
      nodeFlags: ['--expose-gc'],
      name: `${side} server`,
    })
    started.push(child.stop)
    return child
  }
  const servers = { old: start('old'), new: start('new') }
  const origins = {
    old: (await servers.old.next('listening')).restUrl,
    new: (await servers.new.next('listening')).restUrl,
  }
  progress(`old (${oldDir}) at ${origins.old}, new at ${origins.new}; waiting for the new one's first round of TEE checks`)
  const tee: FirstTeeRoundResult = await awaitFirstTeeRound(origins.new, { services: generation.services, serverCpu: () => readChildCpu(servers.new) })
  progress(`first round of TEE checks: ${JSON.stringify(tee.verdicts)} in ${(tee.durationMs / 1000).toFixed(1)} s`)

  const only = values.only?.split(',').filter((prefix) => prefix !== '')
  const targets: LoadTarget[] = restTargets({ jobId: generation.sampleJobId, seller: generation.sampleSeller }).filter(
    ({ path }) => only === undefined || only.some((prefix) => path.startsWith(prefix)),
  )
  if (targets.length === 0) throw new BenchArgumentError(`--only ${values.only} names no endpoint of the REST rows.`)
  for (const target of targets) {
    const [oldBody, newBody] = [(await fetchFirstAnswer(origins.old, target)).body, (await fetchFirstAnswer(origins.new, target)).body]
    // The same data: each route's answer the same bytes from both, but for the health record's clock and versions.
    if (target.path !== '/healthz' && oldBody !== newBody) progress(`${target.name}: the two servers answer different bodies (${oldBody.length} and ${newBody.length} B)`)
  }
  const rows: Row[] = targets.map(({ name, path }) => ({ name, path, rounds: { old: [], new: [] } }))
  const loads: number[] = []
  for (let round = 0; round < rounds; round++) {
    loads.push(loadavg()[0]!)
    const order: Side[] = round % 2 === 0 ? ['old', 'new'] : ['new', 'old']
    progress(`round ${round + 1} of ${rounds} (${order.join(' then ')}), load average ${loadavg()[0]!.toFixed(1)}`)
    for (const [index, target] of targets.entries()) {
      for (const side of order) {
        const result = await runLoad({ url: `${origins[side]}${target.path}`, serverCpu: () => readChildCpu(servers[side]), ...load })
        rows[index]!.rounds[side].push(result)
      }
    }
  }

  const fixed = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
  const change = (before: number, after: number) => `${after >= before ? '+' : ''}${fixed(((after - before) / before) * 100, 1)} %`
  console.log(`REST rows, ${jobs} jobs, ${rounds} rounds of ${warmupSec} s warm-up + ${durationSec} s per endpoint and side, ${connections} connections; load average per round ${loads.map((value) => fixed(value, 1)).join(', ')}`)
  console.log('endpoint | side | req/s per round (median) | p99 ms per round (median) | CPU µs/req per round (median)')
  for (const row of rows) {
    const figures = (side: Side) => {
      const of = (pick: (result: RunLoadReturnType) => number) => row.rounds[side].map(pick)
      return { rps: of((result) => result.requestsPerSec), p99: of((result) => result.p99Ms), cpu: of((result) => result.cpuMicrosPerRequest) }
    }
    const [before, after] = [figures('old'), figures('new')]
    for (const [side, f] of [['old', before], ['new', after]] as const) {
      console.log(`${row.name} | ${side} | ${f.rps.map((value) => fixed(value)).join(' ')} (${fixed(median(f.rps))}) | ${f.p99.join(' ')} (${fixed(median(f.p99))}) | ${f.cpu.map((value) => fixed(value)).join(' ')} (${fixed(median(f.cpu))})`)
    }
    console.log(`${row.name} | new against old | ${change(median(before.rps), median(after.rps))} | ${change(median(before.p99), median(after.p99))} | ${change(median(before.cpu), median(after.cpu))}`)
  }
  const outPath = resolve(values.out)
  writeFileSync(outPath, `${JSON.stringify({ startedAt: new Date().toISOString(), oldDir, jobs, load, rounds, loads, tee, rows }, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2)}\n`)
  progress(`written to ${outPath}`)
} catch (error) {
  process.exitCode = 1
  console.error(error instanceof BaseError ? `compare: ${error.message}${error.details === undefined ? '' : `\n${error.details}`}` : error)
} finally {
  for (const stop of started.reverse()) await stop()
}
