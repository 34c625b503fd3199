import { loadConfig } from '../config/loadConfig.ts'
import type { Deployment } from '../config/deployment.ts'
import { startRestIndexer } from '../server/startRestIndexer.ts'
import { deploymentArgv } from '../test/support/deploymentArgv.ts'
import { receiveBenchOptions } from './receiveBenchOptions.ts'
import type { MemoryFigures } from './serveIndexer.ts'
import { watchEventLoop, type LoopDelayFigures } from './watchEventLoop.ts'
import { unlimitedClientFlags } from './unlimitedClientFlags.ts'

/** What the bench hands a durable server: where its index is kept, and whether it only follows. */
export type ServeDurableOptions = {
  rpcUrl: string
  deployment: Deployment
  pollIntervalMs: number
  dataDir?: string | undefined
  databaseUrl?: string | undefined
  readOnly?: boolean | undefined
}

export type ServeDurableMessage = {
  type: 'ready'
  /** From the server's start (its modules loaded) to /readyz's rule holding: back-filled, or loaded and caught up. */
  readyMs: number
  /** The same from the process's start, module loading (through tsx here) included. */
  processReadyMs: number
  jobs: number
  baseline: MemoryFigures
  loaded: MemoryFigures
  restUrl: string
  /** From listening to ready: how late its event loop ran while back-filling (or catching up) and serving. */
  loopDelay: LoopDelayFigures
}

/**
 * A REST indexer keeping its index in a data dir or Postgres, in its own process, as
 * `npm run serve` runs it (startRestIndexer): timed from its start to ready, memory measured
 * after a full GC before the start and once ready.
 */
const startedAt = performance.now()
const options = await receiveBenchOptions<ServeDurableOptions>()
const measureMemory = (): MemoryFigures => {
  globalThis.gc?.()
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage()
  return { rss, heapUsed, heapTotal, external, arrayBuffers }
}
const config = loadConfig({
  argv: [
    '--network', 'devnet',
    '--rpc-url', options.rpcUrl,
    '--ws-rpc-url', 'none',
    ...deploymentArgv(options.deployment),
    '--poll-interval', String(options.pollIntervalMs),
    '--port', '0',
    ...(options.dataDir === undefined ? [] : ['--data-dir', options.dataDir]),
    ...(options.databaseUrl === undefined ? [] : ['--database-url', options.databaseUrl]),
    ...(options.readOnly === true ? ['--read-only'] : []),
    ...unlimitedClientFlags,
  ],
  env: {},
})
const baseline = measureMemory()
const server = await startRestIndexer(config, { mode: 'production', logger: false })
const loop = watchEventLoop()
while (server.store.sync.backfilledAt === undefined) await new Promise((resolve) => setTimeout(resolve, 5))
const readyMs = performance.now() - startedAt
const loopDelay = loop.stop()
process.send?.({ type: 'ready', readyMs, processReadyMs: performance.now(), jobs: server.store.jobList.length, baseline, loaded: measureMemory(), restUrl: server.url, loopDelay } satisfies ServeDurableMessage)

const stop = async (): Promise<void> => {
  await server.stop()
  process.exit(0)
}
process.once('SIGTERM', () => void stop())
process.once('disconnect', () => void stop())
