import { isDeepStrictEqual } from 'node:util'
import type { Address, Client } from 'viem'
import { findBlockByTimestamp } from '../../chain/read/findBlockByTimestamp.ts'
import { readJobs } from '../../chain/read/readJobs.ts'
import { readServices } from '../../chain/read/readServices.ts'
import type { Job } from '../../contract/job.ts'
import { IncompleteLogsError } from '../../errors/chain.ts'
import type { Store } from '../store/createStore.ts'
import type { ScanWindow } from './createScanWindow.ts'
import { checkJobHistory } from './checkJobHistory.ts'
import { readJobHistory } from './readJobHistory.ts'
import { readNextId } from './readNextId.ts'

export type SelfCheckRepair = { kind: 'service' | 'job'; id: bigint; reason: string }

export type CreateSelfCheckParameters = {
  store: Store
  registry: Address
  escrow: Address
  arbiter: Address
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
  registry,
  escrow,
  arbiter,
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

  /** `count` ids from `start`, wrapping within [first, next). */
  const takeInTurn = (start: bigint | undefined, first: bigint, next: bigint, count: number): { ids: bigint[]; after: bigint } => {
    const ids: bigint[] = []
    const total = next - first
    let id = start === undefined || start < first || start >= next ? first : start
    for (let taken = 0n; taken < BigInt(count) && taken < total; taken += 1n) {
      ids.push(id)
      id = id + 1n >= next ? first : id + 1n
    }
    return { ids, after: id }
  }

  /** Why the stored job certainly differs from the chain's (undefined: it may not). */
  const describeJobDifference = (stored: ReturnType<Store['job']>, chain: Job): string | undefined => {
    if (stored === undefined) return 'missing from the store'
    if (!isDeepStrictEqual(stored.job, chain)) {
      return `its record differs (store: ${stored.job.stateName}, chain: ${chain.stateName})`
    }
    if (checkJobHistory(chain, stored.events) === 'inconsistent') {
      return `its history (${historyText(stored.events)}) cannot lead to ${chain.stateName}`
    }
    return undefined
  }

  /** Reads the job's history again and replaces it when it differs; whether it did. */
  const repairJob = async (client: Client, job: Job, at: bigint, firstBlock: bigint): Promise<boolean> => {
    const jobId = BigInt(job.jobId)
    const created = store.job(jobId)?.events.find(({ event }) => event === 'JobCreated')
    const fromBlock =
      created !== undefined
        ? BigInt(created.blockNumber)
        : await findBlockByTimestamp(client, { timestamp: BigInt(job.createdAt) })
    const events = await readJobHistory(client, {
      escrow,
      arbiter,
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
        await repairJob(client, job, at, firstBlock)
        unrepairedJobs.delete(jobId)
        repaired({ kind: 'job', id: jobId, reason })
      }
      // Read again, and replaced only if the read differs: on the reference, a dispute may end
      // without an escrow event, and such a job is read again each round.
      for (const index of doubtful) {
        const job = jobs[index] as Job
        const before = historyText(store.job(BigInt(job.jobId))?.events ?? [])
        if (!(await repairJob(client, job, at, firstBlock))) continue
        const { repairs } = store.sync.selfCheck
        store.selfChecked({ repairs: repairs + 1 })
        onRepair({ kind: 'job', id: BigInt(job.jobId), reason: `its history (${before}) lacked events` })
      }
    },
  }
}

function historyText(events: readonly { event: string }[]): string {
  return events.map(({ event }) => event).join(', ') || 'no events'
}

function logRepair({ kind, id, reason }: SelfCheckRepair): void {
  console.error(`indexer: self-check repaired ${kind} ${id}: ${reason}`)
}
