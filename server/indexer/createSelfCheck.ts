import { isDeepStrictEqual } from 'node:util'
import type { Client } from 'viem'
import { readJobs } from '../../chain/read/readJobs.ts'
import { readServices } from '../../chain/read/readServices.ts'
import type { IndexedDeployment } from '../../config/deployment.ts'
import type { Job } from '../../contract/job.ts'
import type { Service } from '../../contract/service.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import type { StoreWriter } from '../store/StoreWriter.ts'
import { checkJobHistory } from './checkJobHistory.ts'
import type { ScanWindow } from './createScanWindow.ts'
import { describeJobDifference } from './describeJobDifference.ts'
import { historyText } from './historyText.ts'
import { readNextId } from './readNextId.ts'
import { repairJob } from './repairJob.ts'
import { takeInTurn } from './takeInTurn.ts'

export type SelfCheckRepair = { kind: 'service' | 'job'; id: bigint; reason: string }

export type CreateSelfCheckParameters = {
  store: StoreReader & StoreWriter
  deployment: IndexedDeployment
  /** Window sizes the node accepts, shared with the scan. */
  window: ScanWindow
  /** Jobs compared per run, in turn (default 24: one `eth_call`, see readJobs). */
  jobsPerRun?: number
  /** Services compared per run, in turn (default 20: one `eth_call`, see readServices). */
  servicesPerRun?: number
  /** Every repair, once made; defaults to one line on stderr. */
  onRepair?: (repair: SelfCheckRepair) => void
  /**
   * Shortest time between two rounds (default 3,000 ms, the default poll interval): a poll every
   * 100 ms does not add a check each time (suspects and unrepaired records are checked at once).
   */
  intervalMs?: number
  now?: () => number
}

export type SelfCheck = {
  /**
   * Compares the store with the chain at the cursor block: first `suspects` (jobs whose history
   * did not fit their record), then the next records in turn, all ids created since `firstBlock`
   * over many runs. Whatever differs is read again (a job with its whole history) and replaced.
   */
  run(client: Client, parameters: { firstBlock: bigint; suspects?: Iterable<bigint> }): Promise<void>
}

/**
 * The indexer's continuous self-check: a rolling re-read of job and service records through the
 * batched readers, at the block the store stands on, so that a log a node left out of an answer
 * (a change the window checks could not see: only creations are counted, and blooms are checked
 * near the head) is found within one round of the market and repaired. One run costs four calls
 * (two next-id reads, one batched `getJob` and one batched `getService` call) in two requests.
 */
export function createSelfCheck({
  store,
  deployment,
  window,
  jobsPerRun = 24,
  servicesPerRun = 20,
  onRepair = logRepair,
  intervalMs = 3_000,
  now = Date.now,
}: CreateSelfCheckParameters): SelfCheck {
  let nextJobToCheck: bigint | undefined
  let nextServiceToCheck: bigint | undefined
  const unrepairedJobs = new Map<bigint, string>()
  const unrepairedServices = new Map<bigint, string>()

  const repaired = (repair: SelfCheckRepair): void => {
    const { repairs, unrepaired } = store.sync.selfCheck
    store.selfChecked({ repairs: repairs + 1, unrepaired: Math.max(0, unrepaired - 1) })
    onRepair(repair)
  }

  return {
    async run(client, { firstBlock, suspects = [] }) {
      const cursor = store.sync.cursor
      if (cursor === undefined) return
      const lastRunAt = store.sync.selfCheck.lastRunAt
      const suspected = [...suspects]
      if (suspected.length === 0 && unrepairedJobs.size + unrepairedServices.size === 0 && lastRunAt !== undefined && now() - lastRunAt < intervalMs) {
        return
      }
      const at = cursor.number
      const { registry, escrow } = deployment
      // Ids created before the first block are not ours to check; until the scan has seen where
      // they start (see readWindow), every id is (ids start at 1).
      const { first } = store.sync.creations
      const firstIds = { service: first.service ?? 1n, job: first.job ?? 1n }
      const [nextService, nextJob] = await Promise.all([
        readNextId(client, { contract: 'registry', address: registry, blockNumber: at }),
        readNextId(client, { contract: 'escrow', address: escrow, blockNumber: at }),
      ])
      const jobTurn = takeInTurn(nextJobToCheck, firstIds.job, nextJob, jobsPerRun)
      const serviceTurn = takeInTurn(nextServiceToCheck, firstIds.service, nextService, servicesPerRun)
      const jobIds = [...new Set([...suspected, ...unrepairedJobs.keys(), ...jobTurn.ids])].filter((id) => id < nextJob)
      const serviceIds = [...new Set([...unrepairedServices.keys(), ...serviceTurn.ids])].filter((id) => id < nextService)
      const [jobs, services] = await Promise.all([
        readJobs(client, { escrow, ids: jobIds, blockNumber: at }),
        readServices(client, { registry, ids: serviceIds, blockNumber: at }),
      ])
      // The cursor moved while the records were read (a poll runs one thing at a time, so only a
      // rollback by someone else could): compare next time.
      if (store.sync.cursor?.number !== at) return

      const doubtful = compareRecords(store, { jobIds, jobs, serviceIds, services, unrepairedJobs, unrepairedServices })
      nextJobToCheck = jobTurn.after
      nextServiceToCheck = serviceTurn.after
      const differences = unrepairedJobs.size + unrepairedServices.size
      store.selfChecked({
        lastRunAt: now(),
        checkedJobs: jobIds.length,
        checkedServices: serviceIds.length,
        differences,
        unrepaired: differences,
      })

      for (const [index, service] of services.entries()) {
        const serviceId = serviceIds[index] as bigint
        const reason = unrepairedServices.get(serviceId)
        if (reason === undefined) continue
        store.putService({ serviceId, service })
        unrepairedServices.delete(serviceId)
        repaired({ kind: 'service', id: serviceId, reason })
      }
      for (const [index, job] of jobs.entries()) {
        const jobId = jobIds[index] as bigint
        const reason = unrepairedJobs.get(jobId)
        if (reason === undefined) continue
        await repairJob(client, { store, deployment, window, job, at, firstBlock })
        unrepairedJobs.delete(jobId)
        repaired({ kind: 'job', id: jobId, reason })
      }
      // Read again, and replaced only if the read differs: on the reference, a dispute may end
      // without an escrow event, and such a job is read again each round.
      for (const index of doubtful) {
        const job = jobs[index] as Job
        const before = historyText(store.job(BigInt(job.jobId))?.events ?? [])
        if (!(await repairJob(client, { store, deployment, window, job, at, firstBlock }))) continue
        const { repairs } = store.sync.selfCheck
        store.selfChecked({ repairs: repairs + 1 })
        onRepair({ kind: 'job', id: BigInt(job.jobId), reason: `its history (${before}) lacked events` })
      }
    },
  }
}

type CompareRecordsParameters = {
  jobIds: readonly bigint[]
  /** The records of `jobIds` as the chain has them, in the same order. */
  jobs: readonly Job[]
  serviceIds: readonly bigint[]
  services: readonly Service[]
  /** The records known to differ from the chain, with why: updated with what this comparison found. */
  unrepairedJobs: Map<bigint, string>
  unrepairedServices: Map<bigint, string>
}

/**
 * Compares the records read with the store's: each one that differs is noted in `unrepaired*` with
 * why, each one that no longer does is taken out. Returns the indexes of the jobs that do not
 * differ but whose stored history may lack events (checkJobHistory: doubtful).
 */
function compareRecords(
  store: StoreReader,
  { jobIds, jobs, serviceIds, services, unrepairedJobs, unrepairedServices }: CompareRecordsParameters,
): number[] {
  const doubtful: number[] = []
  for (const [index, job] of jobs.entries()) {
    const stored = store.job(jobIds[index] as bigint)
    const reason = describeJobDifference(stored, job)
    if (reason !== undefined) unrepairedJobs.set(jobIds[index] as bigint, reason)
    else unrepairedJobs.delete(jobIds[index] as bigint)
    if (reason === undefined && stored !== undefined && checkJobHistory(job, stored.events) === 'doubtful') doubtful.push(index)
  }
  for (const [index, service] of services.entries()) {
    const serviceId = serviceIds[index] as bigint
    const stored = store.service(serviceId)
    if (stored === undefined) unrepairedServices.set(serviceId, 'missing from the store')
    else if (!isDeepStrictEqual(stored, service)) unrepairedServices.set(serviceId, 'its record differs')
    else unrepairedServices.delete(serviceId)
  }
  return doubtful
}

function logRepair({ kind, id, reason }: SelfCheckRepair): void {
  console.error(`indexer: self-check repaired ${kind} ${id}: ${reason}`)
}
