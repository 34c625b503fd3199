import { isDeepStrictEqual } from 'node:util'
import type { Client } from 'viem'
import { findBlockByTimestamp } from '../../chain/read/findBlockByTimestamp.ts'
import type { IndexedDeployment } from '../../config/deployment.ts'
import type { Job } from '../../contract/job.ts'
import { IncompleteLogsError } from '../../errors/chain.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import type { StoreWriter } from '../store/StoreWriter.ts'
import { checkJobHistory } from './checkJobHistory.ts'
import type { ScanWindow } from './createScanWindow.ts'
import { historyText } from './historyText.ts'
import { readJobHistory } from './readJobHistory.ts'

export type RepairJobParameters = {
  store: StoreReader & StoreWriter
  deployment: IndexedDeployment
  /** Window sizes the node accepts, shared with the scan. */
  window: ScanWindow
  /** The job's record as the chain has it at `at`. */
  job: Job
  /** The block the store stands on: the history is read up to it. */
  at: bigint
  /** The first indexed block: no history is read before it. */
  firstBlock: bigint
}

/**
 * Reads the job's history again and replaces it when it differs; whether it did. A history that
 * cannot lead to the record, or lacks an event the store holds, is a partial read: IncompleteLogsError.
 */
export async function repairJob(client: Client, { store, deployment, window, job, at, firstBlock }: RepairJobParameters): Promise<boolean> {
  const jobId = BigInt(job.jobId)
  const created = store.job(jobId)?.events.find(({ event }) => event === 'JobCreated')
  const fromBlock =
    created !== undefined
      ? BigInt(created.blockNumber)
      : await findBlockByTimestamp(client, { timestamp: BigInt(job.createdAt) })
  const events = await readJobHistory(client, {
    deployment,
    jobId,
    fromBlock: fromBlock > firstBlock ? fromBlock : firstBlock,
    toBlock: at,
    window,
  })
  const history = events.map(({ event }) => event)
  const createdInRange = fromBlock >= firstBlock
  if (checkJobHistory(job, history) === 'inconsistent' || (createdInRange && history[0]?.event !== 'JobCreated')) {
    throw new IncompleteLogsError({
      fromBlock,
      toBlock: at,
      reason: `the history of job ${jobId} (${historyText(history)}) cannot lead to its state ${job.stateName}`,
    })
  }
  const stored = store.job(jobId)
  // Every event the store holds came from a log of a block still on the chain (a reorg is rolled
  // back before the self-check runs): a read that lacks one is partial, however well it fits.
  const read = new Set(history.map(({ blockNumber, logIndex }) => `${blockNumber}:${logIndex}`))
  const lacking = stored?.events.filter(({ blockNumber, logIndex }) => !read.has(`${blockNumber}:${logIndex}`)) ?? []
  if (lacking.length > 0) {
    throw new IncompleteLogsError({
      fromBlock,
      toBlock: at,
      reason: `the history of job ${jobId} read again lacks ${lacking.length} event${lacking.length === 1 ? '' : 's'} the store holds (${lacking[0]?.event} in block ${lacking[0]?.blockNumber})`,
    })
  }
  if (stored !== undefined && isDeepStrictEqual(stored.job, job) && isDeepStrictEqual(stored.events, history)) return false
  store.replaceJob({ jobId, job, events })
  return true
}
