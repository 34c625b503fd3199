import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../config/loadConfig.ts'
import type { Deployment } from '../config/deployment.ts'
import { startHostedMcpServer } from '../mcp/hosted/startHostedMcpServer.ts'
import { buildApp } from '../server/http/buildApp.ts'
import { buildDocsHtml } from '../server/http/buildDocsHtml.ts'
import { startIndexer } from '../server/indexer/startIndexer.ts'
import { createStore } from '../server/store/createStore.ts'
import { startServiceTeeChecking } from '../server/tee/startServiceTeeChecking.ts'
import { createLogger } from '../platform/logging/createLogger.ts'
import { createLiveFeed, type LiveFeed } from '../server/feed/createLiveFeed.ts'
import { feedJournalLimits } from '../server/startRestIndexer.ts'
import { monotonicMs } from './monotonicMs.ts'
import { receiveBenchOptions } from './receiveBenchOptions.ts'
import { watchEventLoop, type LoopDelayFigures } from './watchEventLoop.ts'
import { unlimitedClientFlags } from './unlimitedClientFlags.ts'

/** What the bench hands the server under test. */
export type ServeIndexerOptions = {
  rpcUrl: string
  /** Follow new heads here (eth_subscribe), or null to poll only. */
  wsRpcUrl: string | null
  deployment: Deployment
  /** First block to index; the deploy block for a full back-fill. */
  startBlock: string
  pollIntervalMs: number
  /** Also start the hosted MCP server, reading the indexer's store in this process (as the REST API does). */
  mcp: boolean
  /** `--rpc-rate-limit`: calls per second the node accepts (default none). */
  rpcRateLimit?: number | undefined
  /**
   * Check every service's TEE in the background once back-filled, as `npm start` and `npm run
   * serve` do (startRestIndexer), with the deployment's 0G contract, PCCS and root.
   */
  teeChecking?: boolean | undefined
  /**
   * Also serve the live feed (`GET /v1/events`) with room for this many streams (the server's
   * connection cap raised to match), and stamp each batch the store applies (see FeedBatchStamp).
   */
  feedStreams?: number | undefined
}

/**
 * A batch the store applied: the block its cursor reached, when (monotonicMs) the store ended it,
 * before the feed's listener ran, and when that listener had handed its events to every stream's
 * socket (or queued them behind a slow one).
 */
export type FeedBatchStamp = { block: string; atMs: number; sentMs: number }

export type MemoryFigures = { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number }

export type ServeIndexerMessage =
  | { type: 'backfilled'; backfillMs: number; jobs: number; baseline: MemoryFigures; loaded: MemoryFigures; loopDelay: LoopDelayFigures }
  | { type: 'listening'; restUrl: string; mcpUrl: string | null }
  | { type: 'memory'; usage: MemoryFigures }
  | { type: 'cpu'; micros: number }
  | { type: 'batches'; stamps: FeedBatchStamp[] }

/**
 * The server under test, in its own process: the real indexer (`startIndexer`, so its own RPC
 * client and batching), the REST app and optionally the hosted MCP server, as `npm start` runs
 * them. The back-fill is timed alone (the REST app is built once it is done), and memory is
 * measured after a full GC before and after it.
 */
const options = await receiveBenchOptions<ServeIndexerOptions>()
const send = (message: ServeIndexerMessage): void => {
  process.send?.(message)
}
const measureMemory = (): MemoryFigures => {
  globalThis.gc?.()
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage()
  return { rss, heapUsed, heapTotal, external, arrayBuffers }
}

const cpuMicros = (): number => {
  const { user, system } = process.cpuUsage()
  return user + system
}

const { deployment } = options
const config = loadConfig({
  argv: [
    '--network', 'devnet',
    '--rpc-url', options.rpcUrl,
    '--ws-rpc-url', options.wsRpcUrl ?? 'none',
    '--chain-id', String(deployment.chainId),
    '--registry', deployment.registry,
    '--escrow', deployment.escrow,
    '--arbiter', deployment.arbiter,
    '--attestation-verifier', deployment.attestationVerifier,
    '--start-block', options.startBlock,
    '--poll-interval', String(options.pollIntervalMs),
    '--host', '127.0.0.1',
    '--port', '0',
    '--mcp-port', '0',
    ...(options.rpcRateLimit === undefined ? [] : ['--rpc-rate-limit', String(options.rpcRateLimit)]),
    ...unlimitedClientFlags,
  ],
  env: {},
  // Where the devnet's TEE (its 0G contract, PCCS and root) is read from, as npm start passes it.
  deployment,
})
const openApiPath = fileURLToPath(new URL('../openapi.json', import.meta.url))
const openApiText = await readFile(openApiPath, 'utf8')
const docsHtml = await buildDocsHtml({ openApiPath, title: (JSON.parse(openApiText) as { info: { title: string } }).info.title })

const baseline = measureMemory()
const startedAt = performance.now()
const loop = watchEventLoop()
const indexer = startIndexer(config, { store: createStore({ pollIntervalMs: config.pollIntervalMs, chainId: config.chainId, network: config.network }) })
await indexer.start()
const loopDelay = loop.stop()
const backfillMs = performance.now() - startedAt
send({ type: 'backfilled', backfillMs, jobs: indexer.store.jobIds.length, baseline, loaded: measureMemory(), loopDelay })

const teeChecking = options.teeChecking === true
  ? startServiceTeeChecking(config, { store: indexer.store, database: undefined, log: createLogger({ level: 'warn', pretty: false }).child({ component: 'tee' }) })
  : undefined
const { store } = indexer
const stamps: FeedBatchStamp[] = []
let feed: LiveFeed | undefined
if (options.feedStreams !== undefined) {
  // Listeners run in the order they watch: one before the feed's, one after.
  store.watchBatches(() => void stamps.push({ block: store.sync.cursor?.number.toString() ?? '', atMs: monotonicMs(), sentMs: 0 }))
  feed = createLiveFeed({ store, chainId: config.chainId, journal: feedJournalLimits })
  store.watchBatches(() => void ((stamps.at(-1) as FeedBatchStamp).sentMs = monotonicMs()))
}
const app = buildApp({
  store,
  mode: 'production',
  openApiText,
  docsHtml,
  logger: false,
  ...(feed === undefined || options.feedStreams === undefined
    ? {}
    : {
        // Each stream holds a connection: room for them all beside the load's.
        limits: { maxConnections: options.feedStreams + 1_024 },
        feed: { feed, settings: { maxStreams: options.feedStreams, maxClientStreams: options.feedStreams, lifetimeMs: 3_600_000 } },
      }),
})
const restUrl = await app.listen({ host: config.host, port: 0 })
const mcp = options.mcp
  ? await startHostedMcpServer(config, { log: (message) => process.stderr.write(`${message}\n`), store: indexer.store })
  : undefined
send({ type: 'listening', restUrl, mcpUrl: mcp === undefined ? null : `${mcp.url}/mcp` })

process.on('message', (message: { type: string }) => {
  if (message.type === 'memory') send({ type: 'memory', usage: measureMemory() })
  if (message.type === 'cpu') send({ type: 'cpu', micros: cpuMicros() })
  if (message.type === 'batches') send({ type: 'batches', stamps: stamps.splice(0) })
})
const stop = async (): Promise<void> => {
  await mcp?.close()
  feed?.stop()
  await app.close()
  await teeChecking?.stop()
  await indexer.stop()
  process.exit(0)
}
process.once('SIGTERM', () => void stop())
process.once('disconnect', () => void stop())
