import { Counter, type Registry } from 'prom-client'
import type { StoreCommitter } from '../durable/createStoreCommitter.ts'

/**
 * What keeping the index durable costs: commits, the records they wrote and the time spent in
 * them, read from the committer's own tally at scrape time.
 */
export function addStoreCommitMetrics({ registry, committer }: { registry: Registry; committer: Pick<StoreCommitter, 'stats'> }): void {
  const counter = (name: string, help: string, read: () => number): void => {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset()
        this.inc(read())
      },
    })
  }
  counter('indexer_store_commits_total', 'Commits of applied windows and polls to the durable store.', () => committer.stats.commits)
  counter('indexer_store_commit_records_total', 'Records (services and jobs) written by those commits.', () => committer.stats.rows)
  counter('indexer_store_commit_seconds_total', 'Time spent in those commits.', () => committer.stats.totalMs / 1000)
}
