import { type Address, encodeFunctionData, stringToHex, toHex } from 'viem'
import { setAutomine } from 'viem/actions'
import { escrowAbi } from '../chain/abi/escrow.ts'
import type { Deployment } from '../config/deployment.ts'
import { BenchSetupError } from '../errors/bench.ts'
import { openEventStream, type OpenedEventStream } from '../test/support/openEventStream.ts'
import { benchAccounts } from './benchAccounts.ts'
import type { BenchService } from './benchServices.ts'
import type { LoadSettings, LoadTarget } from './compareWithCeiling.ts'
import type { BenchClients } from './createBenchClients.ts'
import type { BenchBatchers } from './deployBatchers.ts'
import { monotonicMs } from './monotonicMs.ts'
import { median, percentile } from './percentile.ts'
import { readChildCpu } from './readChildCpu.ts'
import { readUsableServices } from './readUsableServices.ts'
import { runLoad, type RunLoadReturnType } from './runLoad.ts'
import type { FeedBatchStamp, MemoryFigures, ServeIndexerMessage, ServeIndexerOptions } from './serveIndexer.ts'
import type { BenchChild } from './spawnBenchChild.ts'

/** The issue's goal: a change reaches every one of 1,000 streams within 100 ms at p99. */
export const feedTargetP99Ms = 100

export type FeedDelays = { samples: number; p50Ms: number; p99Ms: number; maxMs: number }

/** One REST target loaded without and with the streams open, in the same round. */
export type FeedRestRow = { name: string; round: number; without: RunLoadReturnType; with: RunLoadReturnType }

export type FeedResult = {
  streams: number
  changes: number
  paceMs: number
  /** Per change: from the store applying its block (a stamp in the server) to its event reaching the last stream. */
  toEveryStream: FeedDelays
  /** Per change and stream: the same delay to each stream. */
  toEachStream: FeedDelays
  /** Per change: the server's part, from the store applying its block to the feed having written it to every stream's socket. */
  serverWrote: FeedDelays
  /** Job events some stream never received. */
  missed: number
  /** The server after a full GC, before and after the streams were opened (idle: no event sent). */
  idle: { before: MemoryFigures; after: MemoryFigures; rssPerStreamBytes: number; heapPerStreamBytes: number; externalPerStreamBytes: number }
  /**
   * The server's CPU over two windows of the same length, each with `changes` jobs created: with
   * the streams open (the frames they received counted) and with none.
   */
  cpu: { windowMs: number; framesDelivered: number; withStreamsMicros: number; withoutStreamsMicros: number; microsPerFrame: number; marginalMicrosPerFrame: number }
  rest: FeedRestRow[]
  targetP99Ms: number
  met: boolean
}

export type MeasureFeedParameters = {
  clients: BenchClients
  deployment: Deployment
  batchers: BenchBatchers
  rpcUrl: string
  /** Starts a server child (see run.ts's startServer). */
  startServer: (serve: ServeIndexerOptions, name: string) => BenchChild<ServeIndexerMessage>
  streams: number
  changes: number
  paceMs: number
  restTargets: readonly LoadTarget[]
  load: LoadSettings
  rounds: number
  progress: (message: string) => void
}

/**
 * The live feed at scale: an indexer of its own (the REST app and the feed, back-filled from the
 * deploy block, following new heads) with `streams` streams open from this process. Creates
 * `changes` jobs, one block each, and takes for each the time from the store applying its block
 * (a batch listener in the server, registered before the feed's) to its event reaching each
 * stream (both on the machine's monotonic clock). Then the server's memory per idle stream, its
 * CPU per frame delivered (and beyond the same changes with no stream open), and the REST
 * routes loaded without and with the streams open, alternating, `rounds` times.
 */
export async function measureFeed(parameters: MeasureFeedParameters): Promise<FeedResult> {
  const { clients, deployment, rpcUrl, startServer, streams: count, changes, paceMs, progress } = parameters
  await setAutomine(clients.test, true)
  const server = startServer(
    { rpcUrl, wsRpcUrl: rpcUrl.replace(/^http:/, 'ws:'), deployment, startBlock: deployment.deployBlock, pollIntervalMs: 3_000, mcp: false, feedStreams: count },
    'feed server',
  )
  try {
    await server.next('backfilled')
    const { restUrl } = await server.next('listening')
    await waitForFeed(restUrl)
    const sendJob = await createJobSender(parameters)
    const memory = async (): Promise<MemoryFigures> => {
      server.send({ type: 'memory' })
      return (await server.next('memory', 30_000)).usage
    }

    progress(`live feed: opening ${count} streams`)
    // Once first, closed: what the first streams allocate for good (code, pools) is not per stream.
    closeAll(await openStreams(restUrl, count))
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const before = await memory()
    let streams = await openStreams(restUrl, count)
    const after = await memory()
    progress(`live feed: ${changes} jobs created one every ${paceMs} ms, to ${count} streams`)
    const windowMs = changes * paceMs + 3_000
    const delivery = await deliverChanges({ server, streams, changes, paceMs, windowMs, sendJob })
    closeAll(streams)
    progress(`live feed: the same ${changes} jobs with no stream open (the server's CPU beside)`)
    const quiet = await cpuOver(server, windowMs, () => createPaced(sendJob, changes, paceMs))

    const rest: FeedRestRow[] = []
    // Once first, not counted: the first load of a route pays for its compilation.
    await loadTargets(restUrl, parameters, server)
    for (let round = 1; round <= parameters.rounds; round++) {
      progress(`live feed: REST without and with ${count} streams open, round ${round} of ${parameters.rounds}`)
      // Odd rounds load without the streams first, even ones with them first: drift in the machine's load touches both sides.
      const withoutFirst = round % 2 === 1
      const without = withoutFirst ? await loadTargets(restUrl, parameters, server) : []
      streams = await openStreams(restUrl, count)
      const withStreams = await loadTargets(restUrl, parameters, server)
      closeAll(streams)
      if (!withoutFirst) {
        await new Promise((resolve) => setTimeout(resolve, 1_000))
        without.push(...(await loadTargets(restUrl, parameters, server)))
      }
      parameters.restTargets.forEach(({ name }, index) => rest.push({ name, round, without: without[index] as RunLoadReturnType, with: withStreams[index] as RunLoadReturnType }))
    }
    const perStream = (figure: keyof MemoryFigures): number => (after[figure] - before[figure]) / count
    return {
      streams: count,
      changes,
      paceMs,
      ...delivery.delays,
      idle: { before, after, rssPerStreamBytes: perStream('rss'), heapPerStreamBytes: perStream('heapUsed'), externalPerStreamBytes: perStream('external') },
      cpu: {
        windowMs,
        framesDelivered: delivery.frames,
        withStreamsMicros: delivery.cpuMicros,
        withoutStreamsMicros: quiet,
        microsPerFrame: delivery.cpuMicros / Math.max(1, delivery.frames),
        marginalMicrosPerFrame: (delivery.cpuMicros - quiet) / Math.max(1, delivery.frames),
      },
      rest,
      targetP99Ms: feedTargetP99Ms,
      met: delivery.delays.missed === 0 && delivery.delays.toEveryStream.p99Ms < feedTargetP99Ms,
    }
  } finally {
    await server.stop()
  }
}

/** The feed answers 503 until the first batch after the back-fill: asked until a stream opens. */
async function waitForFeed(restUrl: string): Promise<void> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const stream = await openEventStream(`${restUrl}/v1/events`, { keep: false })
    stream.close()
    if (stream.status === 200) return
    if (Date.now() > deadline) throw new BenchSetupError(`The feed server's stream still answered ${stream.status} after a minute.`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** `count` streams, 100 opening at a time; a stream is the feed's once its 200 came (the server subscribes it before it answers). */
async function openStreams(restUrl: string, count: number): Promise<OpenedEventStream[]> {
  const streams: OpenedEventStream[] = []
  while (streams.length < count) {
    const opening = Array.from({ length: Math.min(100, count - streams.length) }, () => openEventStream(`${restUrl}/v1/events`, { keep: false }))
    streams.push(...(await Promise.all(opening)))
  }
  const refused = streams.filter(({ status }) => status !== 200)
  if (refused.length > 0) throw new BenchSetupError(`${refused.length} of ${count} streams were refused, the first with ${refused[0]?.status}.`)
  // Let the server settle (the last writes, the sockets' buffers) before its memory is read.
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  return streams
}

function closeAll(streams: readonly OpenedEventStream[]): void {
  for (const stream of streams) stream.close()
}

type JobSender = (index: number) => Promise<void>

/** Sends the `index`th job's creation (automine: it is mined when the node answers), through the batchers as the generator does. */
async function createJobSender({ clients, deployment, batchers }: MeasureFeedParameters): Promise<JobSender> {
  const usable = await readUsableServices(clients, deployment)
  return async (index) => {
    const service = usable[index % usable.length] as BenchService
    const buyer = benchAccounts.buyers[index % benchAccounts.buyers.length] as Address
    const data = encodeFunctionData({ abi: escrowAbi, functionName: 'createJob', args: [BigInt(service.index + 1), stringToHex('feed probe'), 86_400n] })
    const batched = batchers.batch(buyer, { target: deployment.escrow, calls: [{ gas: 300_000n, value: service.pricePerCall, data }] })
    const { from, to, value = 0n, gas } = batched
    await clients.wallet.request({ method: 'eth_sendTransaction', params: [{ from, to, data: batched.data, gas: toHex(gas), value: toHex(value) }] })
  }
}

/** `changes` jobs, the `index`th sent `index × paceMs` after the first. */
async function createPaced(sendJob: JobSender, changes: number, paceMs: number): Promise<void> {
  const startedAt = performance.now()
  for (let index = 0; index < changes; index++) {
    const wait = startedAt + index * paceMs - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    await sendJob(index)
  }
}

/** The server's CPU (µs) over `windowMs` from now, while `work` runs in it. */
async function cpuOver(server: BenchChild<ServeIndexerMessage>, windowMs: number, work: () => Promise<void>): Promise<number> {
  const cpuBefore = await readChildCpu(server)
  const endsAt = performance.now() + windowMs
  await work()
  const left = endsAt - performance.now()
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left))
  return (await readChildCpu(server)) - cpuBefore
}

type Delivery = { delays: Pick<FeedResult, 'toEveryStream' | 'toEachStream' | 'serverWrote' | 'missed'>; frames: number; cpuMicros: number }

/** Creates the jobs while the streams are open, and reads each job event's delay to each stream from the server's batch stamps. */
async function deliverChanges({
  server,
  streams,
  changes,
  paceMs,
  windowMs,
  sendJob,
}: {
  server: BenchChild<ServeIndexerMessage>
  streams: readonly OpenedEventStream[]
  changes: number
  paceMs: number
  windowMs: number
  sendJob: JobSender
}): Promise<Delivery> {
  server.send({ type: 'batches' })
  await server.next('batches')
  const firstFrame = streams.map(({ events }) => events.length)
  const cpuMicros = await cpuOver(server, windowMs, () => createPaced(sendJob, changes, paceMs))
  const jobEvents = (stream: OpenedEventStream, index: number) =>
    stream.events.flatMap(({ id, event }, at) => (at >= (firstFrame[index] as number) && event === 'job' ? [{ id, receivedAt: stream.arrivals[at] as number }] : []))
  // Arrivals are stamped as they come; this only waits (up to 30 s) for the last ones.
  const deadline = performance.now() + 30_000
  while (performance.now() < deadline && !streams.every((stream, index) => jobEvents(stream, index).length >= changes)) await new Promise((resolve) => setTimeout(resolve, 100))
  server.send({ type: 'batches' })
  const { stamps } = await server.next('batches')
  // performance.now() (each frame's arrival) on the monotonic clock the server's stamps use.
  const toMonotonic = monotonicMs() - performance.now()
  const arrivals = new Map<string, number[]>()
  const written = new Map<string, number>()
  let frames = 0
  streams.forEach((stream, index) => {
    frames += stream.events.length - (firstFrame[index] as number)
    for (const { id, receivedAt } of jobEvents(stream, index)) {
      const stamp = stampOf(stamps, BigInt(String(id).split('-')[1] ?? '0'))
      const list = arrivals.get(String(id)) ?? []
      list.push(receivedAt + toMonotonic - stamp.atMs)
      arrivals.set(String(id), list)
      written.set(String(id), stamp.sentMs - stamp.atMs)
    }
  })
  const each = [...arrivals.values()].flat().sort((a, b) => a - b)
  const toLast = [...arrivals.values()].map((list) => Math.max(...list)).sort((a, b) => a - b)
  const delays = (sorted: number[]): FeedDelays => ({ samples: sorted.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted.at(-1) ?? Number.NaN })
  const serverWrote = delays([...written.values()].sort((a, b) => a - b))
  return { delays: { toEveryStream: delays(toLast), toEachStream: delays(each), serverWrote, missed: changes * streams.length - each.length }, frames, cpuMicros }
}

/** The batch that applied `block`: the first that took the store's cursor to it or beyond. */
function stampOf(stamps: readonly FeedBatchStamp[], block: bigint): FeedBatchStamp {
  const stamp = stamps.find((candidate) => candidate.block !== '' && BigInt(candidate.block) >= block)
  if (stamp === undefined) throw new BenchSetupError(`The feed server stamped no batch at block ${block}.`)
  return stamp
}

function loadTargets(restUrl: string, { restTargets, load }: MeasureFeedParameters, server: BenchChild<ServeIndexerMessage>): Promise<RunLoadReturnType[]> {
  return restTargets.reduce<Promise<RunLoadReturnType[]>>(
    async (done, { path }) => [...(await done), await runLoad({ url: `${restUrl}${path}`, ...load, serverCpu: () => readChildCpu(server) })],
    Promise.resolve([]),
  )
}

/** Per target, medians over the rounds without and with the streams: requests per second, p99, and the server's CPU per request. */
export type FeedRestSummary = { name: string; withoutPerSec: number; withPerSec: number; withoutCpuMicros: number; withCpuMicros: number }

export function summarizeFeedRest(rows: readonly FeedRestRow[]): FeedRestSummary[] {
  const names = [...new Set(rows.map(({ name }) => name))]
  return names.map((name) => {
    const mine = rows.filter((row) => row.name === name)
    return {
      name,
      withoutPerSec: median(mine.map((row) => row.without.requestsPerSec)),
      withPerSec: median(mine.map((row) => row.with.requestsPerSec)),
      withoutCpuMicros: median(mine.map((row) => row.without.cpuMicrosPerRequest)),
      withCpuMicros: median(mine.map((row) => row.with.cpuMicrosPerRequest)),
    }
  })
}

export function printFeedTable(result: FeedResult): string {
  const ms = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)} ms` : '-')
  const int = (value: number): string => Math.round(value).toLocaleString('en-US')
  const bytes = (value: number): string => `${int(value)} B`
  const delays = (label: string, { samples, p50Ms, p99Ms, maxMs }: FeedDelays): string => `| ${label} | ${int(samples)} | ${ms(p50Ms)} | ${ms(p99Ms)} | ${ms(maxMs)} |`
  const { idle, cpu } = result
  return [
    `Live feed: ${int(result.streams)} streams open on one indexer process; ${result.changes} jobs created, one block each, one every ${result.paceMs} ms:`,
    '',
    '| store applied the block → job event received | samples | p50 | p99 | max |',
    '|---|---|---|---|---|',
    delays('by the last of the streams (per change)', result.toEveryStream),
    delays('by each stream (per change and stream)', result.toEachStream),
    delays("the server's part: written to every stream's socket (per change)", result.serverWrote),
    '',
    `Job events never received: ${int(result.missed)}.`,
    '',
    '| server, per idle stream (after a full GC) | heap used | external | RSS |',
    '|---|---|---|---|',
    `| (${int(result.streams)} streams open − none) / ${int(result.streams)} | ${bytes(idle.heapPerStreamBytes)} | ${bytes(idle.externalPerStreamBytes)} | ${bytes(idle.rssPerStreamBytes)} |`,
    "RSS moves by tens of MB either way as V8 and malloc hand pages back, more than 1,000 streams' worth: read the heap.",
    '',
    `| server CPU over ${(cpu.windowMs / 1000).toFixed(0)} s with the ${result.changes} jobs | frames delivered | CPU | per frame delivered |`,
    '|---|---|---|---|',
    `| ${int(result.streams)} streams open | ${int(cpu.framesDelivered)} | ${int(cpu.withStreamsMicros / 1000)} ms | ${cpu.microsPerFrame.toFixed(1)} µs |`,
    `| no stream open | 0 | ${int(cpu.withoutStreamsMicros / 1000)} ms | |`,
    `| the difference: what the streams cost | | ${int((cpu.withStreamsMicros - cpu.withoutStreamsMicros) / 1000)} ms | ${cpu.marginalMicrosPerFrame.toFixed(1)} µs |`,
    '',
    '| REST route | round | req/s without streams | with | with / without | p99 without | with | server CPU µs/req without | with |',
    '|---|---|---|---|---|---|---|---|---|',
    ...result.rest.map(
      (row) =>
        `| ${row.name} | ${row.round} | ${int(row.without.requestsPerSec)} | ${int(row.with.requestsPerSec)} | ${((row.with.requestsPerSec / row.without.requestsPerSec) * 100).toFixed(0)} % | ${ms(row.without.p99Ms)} | ${ms(row.with.p99Ms)} | ${row.without.cpuMicrosPerRequest.toFixed(1)} | ${row.with.cpuMicrosPerRequest.toFixed(1)} |`,
    ),
    `Medians over the rounds: ${summarizeFeedRest(result.rest)
      .map((row) => `${row.name} ${int(row.withoutPerSec)} → ${int(row.withPerSec)} req/s, ${row.withoutCpuMicros.toFixed(1)} → ${row.withCpuMicros.toFixed(1)} µs/req`)
      .join('; ')}.`,
    '',
    `Target: p99 by the last stream under ${result.targetP99Ms} ms, no event missed: ${result.met ? 'met' : 'not met'}.`,
  ].join('\n')
}
