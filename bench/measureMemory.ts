import type { BenchChild } from './spawnBenchChild.ts'
import type { MemoryFigures, ServeIndexerMessage } from './serveIndexer.ts'

export type MeasureMemoryParameters = {
  /** The server's report at the end of its back-fill (figures after a full GC, before and after). */
  report: Extract<ServeIndexerMessage, { type: 'backfilled' }>
}

export type MemoryResult = {
  jobs: number
  /** Before the indexer started (code loaded, REST docs rendered). */
  baseline: MemoryFigures
  /** After the back-fill of `jobs` jobs. */
  loaded: MemoryFigures
  /** Now, after the load stages (REST app and MCP server up). */
  now: MemoryFigures
  heapPerJobBytes: number
  rssPerJobBytes: number
}

/** Heap and RSS the N-job store costs, per job, all figures taken right after a full GC. */
export async function measureMemory(server: BenchChild<ServeIndexerMessage>, { report }: MeasureMemoryParameters): Promise<MemoryResult> {
  server.send({ type: 'memory' })
  const { usage } = await server.next('memory', 30_000)
  const { jobs, baseline, loaded } = report
  return {
    jobs,
    baseline,
    loaded,
    now: usage,
    heapPerJobBytes: (loaded.heapUsed - baseline.heapUsed) / jobs,
    rssPerJobBytes: (loaded.rss - baseline.rss) / jobs,
  }
}
