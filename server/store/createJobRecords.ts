import type { Job } from '../../contract/job.ts'
import { compareLogs } from './compareLogs.ts'
import { compareUintText } from '../../contract/compareUintText.ts'
import { createJobHistories, type JobHistories } from './createJobHistories.ts'
import { createJobQueryIndexes } from './createJobQueryIndexes.ts'
import { createValuePool, type ValuePool } from './createValuePool.ts'
import { blockNumberAt, eventSlots, holds, JobEntry, logIndexAt, noHistory, transactionHashAt, type HistorySlot } from './jobHistory.ts'
import { findJob, insertById, jobKey, removeById } from './jobsById.ts'
import type { StoredJob, StoreReader } from './StoreReader.ts'
import type { RecordWriter } from './StoreWriter.ts'
import type { RecordPartParameters } from './RecordPartParameters.ts'

/** The jobs with their histories, the indexes the readers query, and what a rollback and a restore work with. */
export type JobRecords = Pick<StoreReader, 'job' | 'jobDispute' | 'sellerJobs' | 'buyerJobs' | 'serviceJobs' | 'stateJobs'> &
  Pick<RecordWriter, 'putJob' | 'addJobEvent' | 'replaceJob'> &
  Pick<JobHistories, 'disputes' | 'setHistory' | 'writeEvent'> & {
    /** Every entry, ascending by id (StoreReader's `jobList`): the same array for the store's life. */
    readonly entries: JobEntry[]
    /** StoreWriter's `staleJobIds`. */
    readonly stale: Set<bigint>
    find(jobId: bigint): JobEntry | undefined
    /** Every job id, ascending (StoreReader's `jobIds`). */
    ids(): bigint[]
    /** The jobs that hold an event of this transaction, by ascending id (see StoreReader's `transactionRecords`). */
    transactionJobs(transactionHash: string): StoredJob[]
    delete(jobId: bigint, entry: JobEntry): void
    clear(): void
  }

export type CreateJobRecordsParameters = RecordPartParameters

/**
 * How many distinct values each pool remembers. Addresses, amounts, block numbers and times,
 * provider names and certificates repeat across jobs of nearby blocks, settled amounts across
 * jobs of a service; a transaction's hash repeats only across its own logs, which come together,
 * so a short pool keeps those hashes from pushing the others out.
 */
const valuePoolLimit = 4_096
const transactionHashPoolLimit = 256

/**
 * Memory per job is kept low (npm run bench, section 5): a job is its served record plus its
 * packed history (where it was created and last touched is read from it), kept in arrays sorted
 * by id and found there by position (no map entry, no bigint per job), and strings that repeat
 * across jobs are shared through small pools. The job queries' indexes (by buyer, seller,
 * service and state) are arrays of the same entries, sorted by id: one pointer per job in each.
 * A dispute's events with their arguments are kept apart (createDisputeEvents), for disputed jobs only.
 */
export function createJobRecords({ counters, changed, changes }: CreateJobRecordsParameters): JobRecords {
  /** Every entry, ascending by id: found by position, and walked by the readers with no lookups. */
  const jobs: JobEntry[] = []
  const indexes = createJobQueryIndexes()
  const stale = new Set<bigint>()
  const poolValue = createValuePool<string>({ limit: valuePoolLimit })
  const pools = {
    value: poolValue,
    transactionHash: createValuePool<string>({ limit: transactionHashPoolLimit }),
    wei: createValuePool<bigint>({ limit: valuePoolLimit }),
  }
  const histories = createJobHistories({ counters, changed, changes, pools })
  const { disputes, setHistory, writeEvent } = histories

  const deleteJob = (jobId: bigint, entry: JobEntry): void => {
    changes.jobChanged(entry)
    histories.forget(entry)
    stale.delete(jobId)
    removeById(jobs, entry)
    indexes.remove(entry)
    counters.jobs -= 1
    changed()
  }

  const find = (jobId: bigint): JobEntry | undefined => findJob(jobs, jobKey(jobId))

  const putJob: JobRecords['putJob'] = ({ jobId, job }) => {
    if (job.jobId !== jobId.toString()) throw new RangeError(`Job ${jobId} must be stored under its own id, not "${job.jobId}".`)
    poolJobValues(job, poolValue)
    const key = jobKey(jobId)
    let entry = findJob(jobs, key)
    if (entry === undefined) {
      entry = new JobEntry(job, changed(), key)
      insertById(jobs, entry)
      indexes.add(entry)
      counters.jobs += 1
    } else {
      indexes.move(entry, entry.job, job)
      entry.job = job
      entry.version = changed()
    }
    changes.jobChanged(entry)
    stale.delete(jobId)
  }

  const addJobEvent: JobRecords['addJobEvent'] = ({ jobId, event, settledWei: wei, dispute }) => {
    const entry = find(jobId)
    if (entry === undefined) throw new RangeError(`Job ${jobId} must be stored before its events.`)
    const { history } = entry
    // Within the chain the store holds (a rollback drops what lies above the common ancestor),
    // a block number and a log index name one log.
    if (holds(history, event)) return
    let at = history.length
    while (at > 0 && compareLogs(blockNumberAt(history, at - eventSlots), logIndexAt(history, at - eventSlots), event) > 0) at -= eventSlots
    // toSpliced allocates exactly the new length; a push would leave spare capacity per job.
    const slots: HistorySlot[] = new Array(eventSlots)
    writeEvent(slots, 0, entry, event, wei)
    setHistory(entry, history.toSpliced(at, 0, ...slots))
    if (dispute !== undefined) disputes.add(entry.key, dispute)
  }

  return {
    entries: jobs,
    stale,
    disputes,
    find,
    setHistory,
    writeEvent,
    delete: deleteJob,
    putJob,
    addJobEvent,
    job: find,
    jobDispute(jobId) {
      const key = jobKey(jobId)
      return findJob(jobs, key) === undefined ? undefined : disputes.get(key)
    },
    sellerJobs: indexes.sellerJobs,
    buyerJobs: indexes.buyerJobs,
    serviceJobs: indexes.serviceJobs,
    stateJobs: indexes.stateJobs,
    ids: () => jobs.map(({ job }) => BigInt(job.jobId)),

    transactionJobs(transactionHash) {
      const touched: StoredJob[] = []
      for (const key of histories.transactionKeys(transactionHash)) {
        const entry = findJob(jobs, key)
        if (entry === undefined) continue
        for (let at = 0; at < entry.history.length; at += eventSlots)
          if (transactionHashAt(entry.history, at) === transactionHash) {
            touched.push(entry)
            break
          }
      }
      return touched.sort((a, b) => compareUintText(a.job.jobId, b.job.jobId))
    },

    replaceJob({ jobId, job, events }) {
      putJob({ jobId, job })
      setHistory(find(jobId) as JobEntry, noHistory)
      for (const event of events) addJobEvent({ jobId, ...event })
    },

    clear() {
      for (let index = jobs.length - 1; index >= 0; index -= 1) {
        const entry = jobs[index] as JobEntry
        deleteJob(BigInt(entry.job.jobId), entry)
      }
      indexes.clear()
      histories.clear()
    },
  }
}

/** Swaps the record's strings that repeat across jobs for the pooled ones (see PutJobParameters). */
function poolJobValues(job: Job, poolValue: ValuePool<string>): void {
  job.serviceId = poolValue(job.serviceId)
  job.buyer = poolValue(job.buyer)
  job.seller = poolValue(job.seller)
  job.amount = poolValue(job.amount)
  job.protocolFee = poolValue(job.protocolFee)
  job.createdAt = poolValue(job.createdAt)
  job.timeout = poolValue(job.timeout)
  if (job.attestation) {
    job.attestation.providerType = poolValue(job.attestation.providerType)
    job.attestation.providerIdentity = poolValue(job.attestation.providerIdentity)
    job.attestation.tlsCertFingerprint = poolValue(job.attestation.tlsCertFingerprint)
  }
}
