import type { JobCreatedRecord } from './scanJobCreated.ts'

/** Where the seller learns of jobs to answer: its node's JobCreated logs, or an indexer's live feed. */
export type JobSource = {
  /** The jobs found and not answered yet, by id; the answering pass deletes what it is done with. */
  pending: Map<bigint, JobCreatedRecord>
  /** Looks for jobs the source must ask for (a scan of the node; the REST read a feed's reset calls for); failures are logged and retried. */
  refresh: () => Promise<void>
  /** After an answering pass: keeps on disk where a restart resumes without missing a job still queued. */
  save: () => void
  stop: () => Promise<void>
}
