import type { Database } from '../server/durable/Database.ts'
import { openPgliteDatabase } from '../server/durable/openPgliteDatabase.ts'
import { openPostgresDatabase } from '../server/durable/openPostgresDatabase.ts'
import { openDurableStore } from '../server/durable/openDurableStore.ts'
import { createStore } from '../server/store/createStore.ts'
import { fillSyntheticStore } from './fillSyntheticStore.ts'
import { receiveBenchOptions } from './receiveBenchOptions.ts'

/** Where the index is kept (neither: memory only, for the heap a store takes without a database). */
export type DurableScaleTarget = { dataDir: string } | { databaseUrl: string } | { memory: true }

export type ServeDurableScaleOptions =
  | { mode: 'write'; target: DurableScaleTarget; jobs: number; window: number }
  | { mode: 'load'; target: DurableScaleTarget }

export type ServeDurableScaleMessage =
  | { type: 'written'; jobs: number; commitMs: number[]; fillMs: number; heapBytesPerJob: number }
  | { type: 'loaded'; jobs: number; openMs: number; loadMs: number; applyMs: number; heapBytesPerJob: number; rssBytesPerJob: number }

const config = {
  chainId: 31337,
  network: 'devnet' as const,
  registry: '0x0000000000000000000000000000000000000001' as const,
  escrow: '0x0000000000000000000000000000000000000002' as const,
  arbiter: '0x0000000000000000000000000000000000000003' as const,
  pollIntervalMs: 3_000,
}

/**
 * The durable store at a scale no chain here can reach: `write` fills a synthetic market into
 * the store window by window (fillSyntheticStore), committing after each as the indexer does;
 * `load`, in a process of its own, opens the database and loads the index as a restart does.
 * Heap figures are after a full GC, over the jobs.
 */
const options = await receiveBenchOptions<ServeDurableScaleOptions>()
const heap = (): { heapUsed: number; rss: number } => {
  globalThis.gc?.()
  const { heapUsed, rss } = process.memoryUsage()
  return { heapUsed, rss }
}
const open = (target: DurableScaleTarget): Promise<Database> | undefined =>
  'dataDir' in target ? openPgliteDatabase(target.dataDir) : 'databaseUrl' in target ? openPostgresDatabase({ url: target.databaseUrl, onSessionLost: 'stop' }) : undefined

const before = heap()
if (options.mode === 'write') {
  const database = await open(options.target)
  const durable = database === undefined ? undefined : await openDurableStore({ database, config })
  const store = durable?.store ?? createStore({ ...config })
  const commitMs: number[] = []
  const startedAt = performance.now()
  for (let from = 1; from <= options.jobs; from += options.window) {
    fillSyntheticStore(store, { from, to: Math.min(options.jobs, from + options.window - 1), jobs: options.jobs })
    store.advance({ number: BigInt(from), hash: undefined })
    if (durable === undefined) continue
    const commitStart = performance.now()
    await durable.committer.commit()
    commitMs.push(performance.now() - commitStart)
  }
  const fillMs = performance.now() - startedAt
  const heapBytesPerJob = Math.round((heap().heapUsed - before.heapUsed) / options.jobs)
  process.send?.({ type: 'written', jobs: options.jobs, commitMs, fillMs, heapBytesPerJob } satisfies ServeDurableScaleMessage)
  await database?.close()
} else {
  const startedAt = performance.now()
  const database = await open(options.target)
  if (database === undefined) throw new Error('load needs a data dir or a database URL')
  const openMs = performance.now() - startedAt
  const durable = await openDurableStore({ database, config })
  const loadMs = performance.now() - startedAt - openMs
  const after = heap()
  const jobs = durable.store.jobList.length
  process.send?.({
    type: 'loaded',
    jobs,
    openMs,
    loadMs,
    applyMs: durable.loaded.applyMs,
    heapBytesPerJob: Math.round((after.heapUsed - before.heapUsed) / jobs),
    rssBytesPerJob: Math.round((after.rss - before.rss) / jobs),
  } satisfies ServeDurableScaleMessage)
  await database.close()
}
process.disconnect?.()
