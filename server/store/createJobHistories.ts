import type { JobEvent } from '../../contract/job.ts'
import type { ChangeTracker } from './ChangeTracker.ts'
import { countHistory } from './countHistory.ts'
import { createDisputeEvents, type DisputeEvents } from './createDisputeEvents.ts'
import { createTransactionIndex, sameSlot } from './createTransactionIndex.ts'
import type { ValuePool } from './createValuePool.ts'
import { eventCode, eventSlots, holds, noHistory, transactionHashAt, type History, type HistorySlot, type JobEntry } from './jobHistory.ts'
import type { JobKey } from './jobsById.ts'
import type { StoreCounters } from './StoreReader.ts'

/** The jobs' packed histories, and what follows each one: the counters, the transaction index and the dispute events. */
export type JobHistories = {
  /** Dispute events by job key, beside the packed histories. */
  readonly disputes: DisputeEvents
  /** Writes an event's slots into a job's history at `at` (see jobHistory.ts), its transaction indexed under the job. */
  writeEvent(history: HistorySlot[], at: number, entry: JobEntry, event: JobEvent, settledWei: bigint | undefined): void
  /** Replaces a job's history: the counters, the transaction index and the dispute's events follow. */
  setHistory(entry: JobEntry, history: History): void
  /** Takes a job that is going away out of the counters, the transaction index and the dispute events. */
  forget(entry: JobEntry): void
  /** The keys of the jobs touched by this transaction, and perhaps by others sharing its slot (see createTransactionIndex). */
  transactionKeys(transactionHash: string): readonly JobKey[]
  clear(): void
}

export type CreateJobHistoriesParameters = {
  /** Shared with the services: the job counters but `jobs` are counted here. */
  counters: StoreCounters
  /** Bumps the store's version (StoreReader's `version`) and returns it. */
  changed: () => number
  changes: ChangeTracker
  /** The pools the events' values are shared through (see createJobRecords); `value` is the job records' too. */
  pools: { value: ValuePool<string>; transactionHash: ValuePool<string>; wei: ValuePool<bigint> }
}

export function createJobHistories({ counters, changed, changes, pools }: CreateJobHistoriesParameters): JobHistories {
  const { value: poolValue, transactionHash: poolTransactionHash, wei: poolWei } = pools
  const jobsByTransaction = createTransactionIndex<JobKey>()
  const disputes = createDisputeEvents()

  /** Drops the job's key from the slots of its transactions that no event of `kept` shares. */
  const forgetTransactions = (entry: JobEntry, kept: History): void => {
    for (let at = 0; at < entry.history.length; at += eventSlots) {
      const transactionHash = transactionHashAt(entry.history, at)
      let shared = false
      for (let keptAt = 0; keptAt < kept.length && !shared; keptAt += eventSlots)
        shared = sameSlot(transactionHashAt(kept, keptAt), transactionHash)
      if (!shared) jobsByTransaction.remove(transactionHash, entry.key)
    }
  }

  return {
    disputes,
    writeEvent(history, at, entry, event, settledWei) {
      const transactionHash = poolTransactionHash(event.transactionHash)
      jobsByTransaction.add(transactionHash, entry.key)
      history[at] = eventCode(event)
      history[at + 1] = poolValue(event.blockNumber)
      history[at + 2] = transactionHash
      history[at + 3] = poolValue(event.timestamp)
      history[at + 4] = event.event === 'JobSettled' && settledWei !== undefined ? poolWei(settledWei) : undefined
    },
    setHistory(entry, history) {
      changes.jobChanged(entry)
      countHistory(counters, entry.history, -1)
      forgetTransactions(entry, history)
      disputes.keep(entry.key, (event) => holds(history, event))
      countHistory(counters, history, 1)
      entry.history = history
      entry.version = changed()
    },
    forget(entry) {
      countHistory(counters, entry.history, -1)
      forgetTransactions(entry, noHistory)
      disputes.delete(entry.key)
    },
    transactionKeys: (transactionHash) => jobsByTransaction.get(transactionHash),
    clear: () => jobsByTransaction.clear(),
  }
}
