import { readFile } from 'node:fs/promises'
import { pino } from 'pino'
import type { Config } from '../config/ConfigSchema.ts'
import { redactUrl } from '../config/redactUrl.ts'
import { describeFailure } from './indexer/describeFailure.ts'
import { createNodeTransports, startIndexer, type StartIndexerOptions, type StartIndexerReturnType } from './indexer/startIndexer.ts'
import type { Logger } from '../platform/logging/createLogger.ts'
import { packageVersion } from '../platform/logging/packageVersion.ts'
import { describeNodeLimits } from './logging/describeNodeLimits.ts'
import { reportBackfillProgress } from './logging/reportBackfillProgress.ts'
import { addIndexerMetrics } from './metrics/addIndexerMetrics.ts'
import { addStoreCommitMetrics } from './metrics/addStoreCommitMetrics.ts'
import { createMetricsRegistry, type Registry } from '../platform/metrics/createMetricsRegistry.ts'
import { createRpcObserver } from './metrics/createRpcObserver.ts'
import { serveMetrics } from '../platform/metrics/serveMetrics.ts'
import type { StoreReader } from './store/StoreReader.ts'
import { createStore, type Store } from './store/createStore.ts'
import type { Database } from './durable/Database.ts'
import { followDurableStore } from './durable/followDurableStore.ts'
import { keepsIndex, openDatabase } from './durable/openDatabase.ts'
import { openDurableStore } from './durable/openDurableStore.ts'
import { buildApp, type AppMode } from './http/buildApp.ts'
import { openApiPath } from './http/openApiPath.ts'
import { buildDocsHtml } from './http/buildDocsHtml.ts'
import { listenServing } from '../platform/serving/listenServing.ts'
import { readServingOptions } from '../platform/serving/readServingOptions.ts'
import { toExplorerSite } from './explorer/ExplorerSite.ts'
import { startServiceTeeChecking } from './tee/startServiceTeeChecking.ts'
import { readExplorerAssets } from './explorer/readExplorerAssets.ts'
import { createLiveFeed } from './feed/createLiveFeed.ts'
import { addFeedMetrics } from './metrics/addFeedMetrics.ts'

export type StartRestIndexerParameters = {
  mode: AppMode
  /** The process's logger (see createLogger); `false` logs nothing. */
  logger: Logger | false
  /** Draw the back-fill progress as a live bar on this terminal rather than as log lines. */
  progressTty?: NodeJS.WriteStream | undefined
  /** Between two back-fill progress lines (default 5 s). */
  progressIntervalMs?: number | undefined
  /** The nodes' transports, when the caller made them for its start-up check (see startIndexer). */
  rpc?: StartIndexerOptions['rpc']
}

export type StartRestIndexerReturnType = {
  /** Where the API answers, e.g. `http://127.0.0.1:8080`. */
  url: string
  /** Where `/metrics` answers when it has a port of its own (`--metrics <port>`). */
  metricsUrl: string | undefined
  /** The indexer's store, for other servers in this process (the hosted MCP server reads it). */
  store: StoreReader
  stop: () => Promise<void>
}

/** Events kept for resumption: minutes of a busy market, tens of MB at most. */
export const feedJournalLimits = { maxEntries: 10_000, maxChars: 32 * 1_048_576 }

/**
 * The indexer and its REST API: starts following the chain, and listens at once on the configured
 * host and port (/healthz and /readyz answer 503 until the back-fill reaches the head). Logs a
 * start line, the back-fill's progress, poll failures and reorgs, and a stop line.
 */
export async function startRestIndexer(
  config: Config,
  { mode, logger: given, progressTty, progressIntervalMs, rpc }: StartRestIndexerParameters,
): Promise<StartRestIndexerReturnType> {
  // One set of limiters for the index and the TEE checking, so that together they keep the rate.
  const nodes = rpc ?? (config.readOnly ? undefined : createNodeTransports(config))
  const logger = given === false ? pino({ enabled: false }) : given
  const log = logger.child({ component: 'indexer' })
  // First: a bad certificate stops the start before the indexer reads anything.
  const serving = await readServingOptions(config)
  const openApiText = await readFile(openApiPath, 'utf8')
  const { title } = (JSON.parse(openApiText) as { info: { title: string } }).info
  const registry = config.metrics === 'off' ? undefined : createMetricsRegistry({ service: 'rest' })
  // The database opens on a thread of its own (PGlite's) or over a socket, while this thread
  // builds the app on the store the index will be loaded into: a warm restart is ready once the
  // load ends, not the load and then the app.
  const opening = openDatabase(config, {
    // A writer's commits fail from here on, so its polls fail and readiness says so; a replica's
    // next look reconnects.
    onSessionLost: (error) =>
      config.readOnly
        ? log.warn({ err: error.message }, 'database session lost: reconnecting at the next look')
        : log.error({ err: error.message }, 'database session lost: this process no longer writes the index'),
  })
  opening.catch(() => undefined)
  const store = createStore({
    pollIntervalMs: config.pollIntervalMs,
    chainId: config.chainId,
    network: config.network,
    // A writer commits what each window changed; a replica and an index in memory only keep no such list.
    trackChanges: keepsIndex(config) && !config.readOnly,
    onListenerError: (error) => log.error({ err: error instanceof Error ? error.message : String(error) }, 'the live feed failed to take a batch'),
  })
  const feed = createLiveFeed({ store, chainId: config.chainId, journal: feedJournalLimits })
  if (registry !== undefined) addFeedMetrics(registry, { feed })
  const building = Promise.all([buildDocsHtml({ openApiPath, title }), readExplorerAssets()]).then(async ([docsHtml, assets]) => {
    const app = buildApp({
      store,
      mode,
      openApiText,
      docsHtml,
      logger,
      explorer: { assets, site: toExplorerSite(config) },
      accessLog: config.accessLog,
      limits: { maxConnectionsPerAddress: config.maxClientConnections },
      rateLimit: { max: config.rateLimit },
      metrics: registry === undefined ? undefined : { registry, route: config.metrics === 'on' },
      serving,
      feed: {
        feed,
        settings: { maxStreams: config.maxStreams, maxClientStreams: config.maxClientStreams, lifetimeMs: config.streamLifetime * 1000 },
      },
    })
    await app.ready()
    return app
  })
  building.catch(() => undefined)
  const closeApp = (): Promise<void> => building.then((app) => app.close(), () => undefined)
  const database = await opening.catch(async (error: unknown) => {
    await closeApp()
    throw error
  })
  const source = await (config.readOnly
    ? followIndex(config, { database: database as Database, store, log })
    : startIndexing(config, { database, store, log, registry, nodes, progressTty, progressIntervalMs })
  ).catch(async (error: unknown) => {
    await closeApp()
    await database?.close()
    throw error
  })
  // Replicas check too: a verdict is this indexer's own, from the provider's evidence, not the writer's.
  const teeChecking = startServiceTeeChecking(config, { store, database: config.readOnly ? undefined : database, log: logger.child({ component: 'tee' }), transport: nodes?.transport })
  try {
    const app = await building
    const { url, unwatch } = await listenServing(app, { host: config.host, port: config.port, settings: config, logger })
    const metricsServer = registry === undefined ? undefined : await serveMetrics({ registry, setting: config.metrics, host: config.host })
    const metricsUrl = metricsServer?.url
    logger.info(
      {
        version: packageVersion,
        network: config.network,
        chainId: config.chainId,
        registry: config.registry,
        escrow: config.escrow,
        url,
        port: new URL(url).port,
        metrics: config.metrics === 'off' ? 'off' : `${metricsUrl ?? url}/metrics`,
        tls: serving.certificate ?? 'off',
        trustProxy: serving.trustProxy,
        index: database === undefined ? 'memory' : `${config.readOnly ? 'read-only replica of' : 'kept in'} ${database.where}`,
      },
      'rest indexer started',
    )
    return {
      url,
      metricsUrl,
      store: source.store,
      stop: async () => {
        unwatch()
        feed.stop()
        await app.close()
        await metricsServer?.close()
        await teeChecking.stop()
        await source.stop()
        await database?.close()
        logger.info({ lastIndexedBlock: source.store.sync.cursor?.number.toString() }, 'rest indexer stopped')
      },
    }
  } catch (error) {
    await closeApp()
    await teeChecking.stop()
    await source.stop()
    await database?.close()
    throw error
  }
}

type IndexSource = { store: StoreReader; stop: () => Promise<void> }

/**
 * The indexer, on a store loaded from the database when one is configured (it resumes from its
 * cursor, and commits each window), else on a new one in memory.
 */
async function startIndexing(
  config: Config,
  {
    database,
    store,
    log,
    registry,
    nodes,
    progressTty,
    progressIntervalMs,
  }: Pick<StartRestIndexerParameters, 'progressTty' | 'progressIntervalMs'> & {
    database: Database | undefined
    store: Store
    log: Logger
    registry: Registry | undefined
    nodes: StartIndexerOptions['rpc']
  },
): Promise<IndexSource> {
  const rpc = createRpcObserver()
  const metrics = registry === undefined ? undefined : addIndexerMetrics({ registry, rpc, startBlock: config.startBlock })
  let indexer: StartIndexerReturnType | undefined
  const durable =
    database === undefined
      ? undefined
      : await openDurableStore({
          database,
          config,
          store,
          onNotice: (message) => log.warn(message),
          meta: () => ({ logRangeLimit: indexer?.logWindow.limit()?.toString() ?? '' }),
        })
  if (durable !== undefined) {
    if (registry !== undefined) addStoreCommitMetrics({ registry, committer: durable.committer })
    const { services, jobs, cursor, ms, applyMs } = durable.loaded
    log.info({ database: database?.where, services, jobs, cursor: cursor?.toString(), loadMs: ms, applyMs }, cursor === undefined ? 'index empty: back-filling from the first block' : 'index loaded: resuming from its cursor')
  }
  indexer = startIndexer(config, {
    rpc: nodes,
    observeTransport: rpc.wrap,
    store,
    commit: durable?.committer.commit,
    maxWindow: config.logRange ?? durable?.logRangeLimit,
    onError: (error) => {
      metrics?.onFailedPoll()
      const { code, message } = describeFailure(error)
      log.warn({ rpc: redactUrl(config.rpcUrl), code, err: message }, 'poll failed, retrying')
    },
    onNewHeadsChange: (change) => {
      if (change.state === 'subscribed') log.info({ endpoint: change.endpoint }, 'following new heads')
      else log.warn({ endpoint: change.endpoint, err: change.error.message, retryInMs: change.retryInMs }, 'new heads unavailable, polling meanwhile')
    },
    onPoll: metrics?.onPoll,
    onReorg: (reorg) => {
      metrics?.onReorg(reorg)
      log.warn({ depth: Number(reorg.depth), ancestor: reorg.ancestor?.toString() }, 'reorg: rolled back')
    },
  })
  const started = indexer
  metrics?.observe(started)
  // A loaded index catches up from its cursor: its lines count the blocks read since, not the
  // history it loaded (at 100,000 jobs that said 3,236 blocks in 0.17 s).
  const resumedFrom = durable?.loaded.cursor
  const progress = reportBackfillProgress({
    store: started.store,
    logger: log,
    firstBlock: () => (resumedFrom === undefined ? (config.startBlock ?? rpc.firstLogsBlock) : resumedFrom + 1n),
    latestHead: () => rpc.latestHead,
    limits: () => describeNodeLimits(started),
    intervalMs: progressIntervalMs,
    tty: progressTty,
  })
  void started.start().then(progress.finish, () => progress.stop())
  return {
    store: started.store,
    stop: async () => {
      progress.stop()
      await started.stop()
    },
  }
}

/** A read-only replica: the index the writer keeps in the database, followed; the chain is not read. */
async function followIndex(config: Config, { database, store, log }: { database: Database; store: Store; log: Logger }): Promise<IndexSource> {
  const follower = await followDurableStore({
    database,
    config,
    store,
    onError: (error) => log.warn({ err: error instanceof Error ? error.message : String(error) }, 'reading the writer\'s commits failed, retrying'),
    onNotice: (message) => log.warn(message),
  })
  return follower
}
