import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { resolve } from 'node:path'
import { BaseError } from '../errors/BaseError.ts'
import { BenchChildError } from '../errors/bench.ts'
import { assertMemoryFor } from './assertMemoryFor.ts'
import { awaitFirstTeeRound } from './awaitFirstTeeRound.ts'
import type { BenchResults } from './BenchResults.ts'
import { evaluateTargets } from './evaluateTargets.ts'
import { generateJobs } from './generateJobs.ts'
import { measureBackfill } from './measureBackfill.ts'
import { measureDurability, measureDurableScale, printDurabilityTable, printDurableScaleTable } from './measureDurability.ts'
import { measureFeed, printFeedTable } from './measureFeed.ts'
import { measureFullNode } from './measureFullNode.ts'
import { jobQueriesStoreJobs, measureJobQueriesAtScale, printJobQueriesAtScale } from './measureJobQueriesAtScale.ts'
import { measureLag, type LagResult } from './measureLag.ts'
import { measureMcp } from './measureMcp.ts'
import { measureMemory } from './measureMemory.ts'
import { measureObservability, printObservabilityTable } from './measureObservability.ts'
import { measureRateLimit, printRateLimitTable } from './measureRateLimit.ts'
import { measureTee, printTeeTable } from './measureTee.ts'
import { measureTls, printTlsTable } from './measureTls.ts'
import { measureRest, restTargets } from './measureRest.ts'
import { measureServingAtScale, printServingAtScale } from './measureServingAtScale.ts'
import { measureSlowClients, printSlowClientsTable } from './measureSlowClients.ts'
import { parseBenchArgs } from './parseBenchArgs.ts'
import { printTable } from './printTable.ts'
import { readChildCpu } from './readChildCpu.ts'
import type { ServeHostedMcpMessage, ServeHostedMcpOptions } from './serveHostedMcp.ts'
import type { ServeIndexerMessage, ServeIndexerOptions } from './serveIndexer.ts'
import { spawnBenchChild, type BenchChild } from './spawnBenchChild.ts'
import { startBenchAttestations } from './startBenchAttestations.ts'
import { startBenchDevnet } from './startBenchDevnet.ts'
import { startCountingProxy } from './startCountingProxy.ts'

/**
 * `npm run bench [-- --quick | --jobs N | ...]`: builds an N-job market on a devnet of its own,
 * then measures the back-fill, the settlement lag, REST and MCP throughput against a bare-server
 * ceiling, and memory. Prints tables and writes bench/results.json. Progress goes to stderr.
 */
const progress = (message: string): void => {
  process.stderr.write(`bench: ${message}\n`)
}
const children: BenchChild<{ type: string }>[] = []
const cleanups: (() => Promise<void>)[] = []
const cleanUp = async (): Promise<void> => {
  for (const child of children.reverse()) await child.stop()
  for (const cleanup of cleanups.reverse()) await cleanup()
}

try {
  const options = parseBenchArgs(process.argv.slice(2))
  assertMemoryFor({ jobs: options.jobs, node: options.node })
  const startedAt = new Date()
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? 'unknown', loadAverage: loadavg(), node: process.version }
  const load = { connections: options.connections, durationSec: options.durationSec, warmupSec: options.warmupSec }

  if (options.observabilityOnly) {
    progress(`loading GET /v1/services with metrics and access logs on and off (${options.warmupSec} s warm-up + ${options.durationSec} s each)`)
    console.log(printObservabilityTable(await measureObservability({ load })))
    process.exit(0)
  }
  if (options.rateLimitOnly) {
    progress(`loading GET /v1/services without and with the per-client request limiter (${options.warmupSec} s warm-up + ${options.durationSec} s each)`)
    console.log(printRateLimitTable(await measureRateLimit({ load })))
    process.exit(0)
  }
  if (options.teeOnly) {
    progress('timing checkTeeEvidence on a real TDX sample and fetchCollateral from a local PCS')
    console.log(printTeeTable(await measureTee()))
    process.exit(0)
  }
  if (options.tlsOnly) {
    progress(`loading GET /v1/jobs/:id and MCP get_job over http, https and HTTP/2 (${options.warmupSec} s warm-up + ${options.durationSec} s each)`)
    console.log(printTlsTable(await measureTls({ load })))
    process.exit(0)
  }
  if (options.slowClientsOnly) {
    console.log(printSlowClientsTable(await measureSlowClients({ progress })))
    process.exit(0)
  }
  const jobQueriesProgress = `loading GET /v1/jobs pages over a store filled with ${jobQueriesStoreJobs.toLocaleString('en-US')} jobs (${options.warmupSec} s warm-up + ${options.durationSec} s each)`
  if (options.durabilityOnly) {
    console.log(printDurableScaleTable(await measureDurableScale({ progress })))
    process.exit(0)
  }
  const servingScale = (): ReturnType<typeof measureServingAtScale> =>
    measureServingAtScale({ load, jobs: options.servingJobs, nodeFlags: options.servingNodeFlags, cpuProfDir: options.cpuProfDir, progress })
  if (options.servingScaleOnly) {
    console.log(printServingAtScale(await servingScale()))
    process.exit(0)
  }
  if (options.jobQueriesOnly) {
    progress(jobQueriesProgress)
    console.log(printJobQueriesAtScale(await measureJobQueriesAtScale({ load })))
    process.exit(0)
  }

  progress(`starting a devnet (${options.node}) and generating ${options.jobs} jobs`)
  const devnet = await startBenchDevnet({ node: options.node })
  cleanups.push(devnet.stop)
  const generation = await generateJobs(devnet.clients, { deployment: devnet.deployment, jobs: options.jobs, onProgress: progress })
  const attestations = await startBenchAttestations(devnet.clients.public, { deployment: devnet.deployment, teeRoot: devnet.teeRoot, batchers: generation.batchers })
  cleanups.push(attestations.stop)
  progress(`registered ${attestations.providers} 0G provider records, each pointing at quotes made with the devnet's root`)

  const proxy = await startCountingProxy({ target: devnet.rpcUrl, latencyMs: options.rpcLatencyMs })
  cleanups.push(proxy.stop)
  const startServer = (serve: ServeIndexerOptions, name: string): BenchChild<ServeIndexerMessage> => {
    const nodeFlags = ['--expose-gc']
    if (options.cpuProfDir !== null) {
      mkdirSync(options.cpuProfDir, { recursive: true })
      nodeFlags.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`)
    }
    const child = spawnBenchChild<ServeIndexerMessage>({ entry: 'bench/serveIndexer.ts', options: serve, nodeFlags, name })
    children.push(child)
    return child
  }

  const feedStage = (): ReturnType<typeof measureFeed> =>
    measureFeed({
      clients: devnet.clients,
      deployment: devnet.deployment,
      batchers: generation.batchers,
      rpcUrl: devnet.rpcUrl,
      startServer,
      streams: options.feedStreams,
      changes: options.feedChanges,
      paceMs: options.feedPaceMs,
      restTargets: restTargets({ jobId: generation.sampleJobId, seller: generation.sampleSeller }).filter(({ name }) => ['GET /v1/jobs/:id', 'GET /v1/jobs?limit=50', 'GET /v1/stats'].includes(name)),
      load,
      rounds: options.feedRounds,
      progress,
    })
  if (options.feedOnly) {
    console.log(printFeedTable(await feedStage()))
    await cleanUp()
    process.exit(0)
  }

  progress(`back-filling a fresh indexer (default poll) through the counting proxy${options.rpcLatencyMs > 0 ? `, ${options.rpcLatencyMs} ms added to each answer` : ''}`)
  proxy.reset()
  const server = startServer(
    {
      rpcUrl: proxy.url,
      // Polls only: the back-fill is timed and counted alone (the proxy does not pass WebSocket).
      wsRpcUrl: null,
      deployment: devnet.deployment,
      startBlock: devnet.deployment.deployBlock,
      pollIntervalMs: options.defaultPollMs,
      mcp: true,
      teeChecking: true,
    },
    'server under test',
  )
  const backfilled = await measureBackfill(server, { proxy, generated: generation, addedLatencyMs: options.rpcLatencyMs })
  // The added latency is the back-fill's: the lag stage times the indexer's own delays.
  proxy.setLatencyMs(0)
  if (backfilled.mcpUrl === null) throw new BenchChildError('The server under test started no MCP server.')

  progress(`waiting for the server under test's first round of TEE checks (${generation.services} services), so that what follows runs beside the checking`)
  const tee = await awaitFirstTeeRound(backfilled.restUrl, { services: generation.services, serverCpu: () => readChildCpu(server) })
  progress(`first round of TEE checks: ${JSON.stringify(tee.verdicts)} in ${(tee.durationMs / 1000).toFixed(1)} s, ${tee.serverCpuMs.toFixed(0)} ms of the server's CPU`)

  let lag: LagResult[] = []
  if (!options.skip.includes('lag')) {
    progress(
      `measuring lag: ${options.lagJobs} settlements at the ${options.defaultPollMs} ms poll, ` +
        `following new heads, and at a ${options.fastPollMs} ms poll`,
    )
    // The faster observers start at the head: only the lag jobs matter to them, not a second back-fill.
    const startBlock = (generation.headBlock + 1n).toString()
    const observer = { rpcUrl: devnet.rpcUrl, deployment: devnet.deployment, startBlock, mcp: false }
    // The node (hardhat or anvil) serves WebSocket on its HTTP host and port.
    const wsRpcUrl = devnet.rpcUrl.replace(/^http:/, 'ws:')
    const headsServer = startServer({ ...observer, wsRpcUrl, pollIntervalMs: options.defaultPollMs }, 'new-heads server')
    const fastServer = startServer({ ...observer, wsRpcUrl: null, pollIntervalMs: options.fastPollMs }, 'fast-poll server')
    const [{ restUrl: headsRestUrl }, { restUrl: fastRestUrl }] = await Promise.all([
      headsServer.next('listening'),
      fastServer.next('listening'),
    ])
    lag = await measureLag(devnet.clients, {
      deployment: devnet.deployment,
      batchers: generation.batchers,
      jobs: options.lagJobs,
      paceMs: options.lagPaceMs,
      observers: [
        {
          label: `${options.defaultPollMs / 1000} s poll (default)`,
          pollIntervalMs: options.defaultPollMs,
          targetP95Ms: options.defaultPollMs + 500,
          restUrl: backfilled.restUrl,
        },
        {
          label: `new heads over WebSocket (+ ${options.defaultPollMs / 1000} s poll)`,
          pollIntervalMs: options.defaultPollMs,
          targetP95Ms: 500,
          restUrl: headsRestUrl,
        },
        { label: `${options.fastPollMs} ms poll`, pollIntervalMs: options.fastPollMs, targetP95Ms: 500, restUrl: fastRestUrl },
      ],
    })
    await Promise.all([headsServer.stop(), fastServer.stop()])
  }

  const serverCpu = (): Promise<number> => readChildCpu(server)
  if (!options.skip.includes('rest'))
    progress(`loading REST endpoints (${options.warmupSec} s warm-up + ${options.durationSec} s each, ours then the ceiling)`)
  const rest = options.skip.includes('rest')
    ? []
    : await measureRest(backfilled.restUrl, { jobId: generation.sampleJobId, seller: generation.sampleSeller, load, serverCpu })
  const mcp: Awaited<ReturnType<typeof measureMcp>> = []
  if (!options.skip.includes('mcp')) {
    const jobId = generation.sampleJobId
    progress('loading MCP tools/call: in the indexer\'s process, through --indexer-url, reading the chain per call')
    mcp.push(...(await measureMcp(backfilled.mcpUrl, { mode: 'in-process store', jobId, load, serverCpu })))
    // Apart from the indexer: a hosted MCP process of its own, reading the REST API of the server
    // under test (both processes' CPU counted), then the node itself (the node's CPU not counted).
    const startMcp = async (indexerUrl: string | null): Promise<BenchChild<ServeHostedMcpMessage>> => {
      const serve: ServeHostedMcpOptions = { rpcUrl: devnet.rpcUrl, deployment: devnet.deployment, indexerUrl }
      const child = spawnBenchChild<ServeHostedMcpMessage>({ entry: 'bench/serveHostedMcp.ts', options: serve, name: 'hosted mcp' })
      children.push(child)
      return child
    }
    const throughIndexer = await startMcp(backfilled.restUrl)
    const { mcpUrl: indexerMcpUrl } = await throughIndexer.next('listening', 30_000)
    const bothCpu = async (): Promise<number> => (await readChildCpu(throughIndexer)) + (await serverCpu())
    mcp.push(...(await measureMcp(indexerMcpUrl, { mode: '--indexer-url', jobId, load, serverCpu: bothCpu })))
    await throughIndexer.stop()
    const perCall = await startMcp(null)
    const { mcpUrl: chainMcpUrl } = await perCall.next('listening', 30_000)
    mcp.push(...(await measureMcp(chainMcpUrl, { mode: 'chain per call', jobId, load, serverCpu: () => readChildCpu(perCall) })))
    await perCall.stop()
  }
  const memory = await measureMemory(server, { report: backfilled.report })
  if (!options.skip.includes('observability')) progress('loading GET /v1/services with metrics and access logs on and off')
  const observability = options.skip.includes('observability') ? [] : await measureObservability({ load })
  if (!options.skip.includes('ratelimit')) progress('loading GET /v1/services without and with the per-client request limiter')
  const rateLimit = options.skip.includes('ratelimit') ? [] : await measureRateLimit({ load })
  if (!options.skip.includes('tls')) progress('loading GET /v1/jobs/:id and MCP get_job over http, https and HTTP/2')
  const tls = options.skip.includes('tls') ? [] : await measureTls({ load })
  const slowClients = options.skip.includes('slowclients') ? null : await measureSlowClients({ progress })
  if (!options.skip.includes('jobqueries')) progress(jobQueriesProgress)
  const jobQueries = options.skip.includes('jobqueries') ? null : await measureJobQueriesAtScale({ load })
  const fullNode = options.skip.includes('fullnode')
    ? null
    : await measureFullNode({ blocks: options.fullNodeBlocks, bursts: 20, startServer, progress })
  const durability = options.skip.includes('durability')
    ? null
    : await measureDurability({
        clients: devnet.clients,
        deployment: devnet.deployment,
        batchers: generation.batchers,
        rpcUrl: devnet.rpcUrl,
        lagJobs: options.lagJobs,
        lagPaceMs: options.lagPaceMs,
        progress,
      })
  const durableScale = options.skip.includes('durability') ? null : await measureDurableScale({ progress })
  const feed = options.skip.includes('feed') ? null : await feedStage()
  const servingAtScale = options.skip.includes('servingscale') ? null : await servingScale()

  const { batchers: _batchers, ...withoutBatchers } = generation
  const results: BenchResults = {
    note: 'figures from a shared 2-core machine',
    startedAt: startedAt.toISOString(),
    durationSec: (Date.now() - startedAt.getTime()) / 1000,
    machine,
    options,
    generation: withoutBatchers,
    backfill: backfilled.result,
    lag,
    tee,
    rest,
    mcp,
    memory,
    observability,
    rateLimit,
    tls,
    slowClients,
    fullNode,
    durability,
    durableScale,
    jobQueries,
    servingScale: servingAtScale,
    feed,
    targets: evaluateTargets({ backfill: backfilled.result, lag, rest, memory, fullNode, feed }),
  }
  const resultsPath = resolve(options.resultsPath)
  writeFileSync(resultsPath, `${JSON.stringify(results, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2)}\n`)
  console.log(printTable(results))
  if (observability.length > 0) console.log(`\n${printObservabilityTable(observability)}`)
  if (rateLimit.length > 0) console.log(`\n${printRateLimitTable(rateLimit)}`)
  if (tls.length > 0) console.log(`\n${printTlsTable(tls)}`)
  if (slowClients !== null) console.log(`\n${printSlowClientsTable(slowClients)}`)
  if (durability !== null) console.log(`\n${printDurabilityTable(durability)}`)
  if (durableScale !== null) console.log(`\n${printDurableScaleTable(durableScale)}`)
  if (jobQueries !== null) console.log(`\n${printJobQueriesAtScale(jobQueries)}`)
  if (servingAtScale !== null) console.log(`\n${printServingAtScale(servingAtScale)}`)
  if (feed !== null) console.log(`\n${printFeedTable(feed)}`)
  console.log(`\nwritten to ${options.resultsPath} in ${results.durationSec.toFixed(0)} s`)
} catch (error) {
  console.error(error instanceof BaseError ? `bench: ${error.message}${error.details === undefined ? '' : `\n${error.details}`}` : error)
  process.exitCode = 1
} finally {
  await cleanUp()
}
