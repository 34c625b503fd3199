import type { Address, Client, GetLogsReturnType, Hash } from 'viem'
import { getBlock } from 'viem/actions'
import { readJobs } from '../../chain/read/readJobs.ts'
import { readLogs } from '../../chain/read/readLogs.ts'
import { readServices } from '../../chain/read/readServices.ts'
import type { Job } from '../../contract/job.ts'
import type { Service } from '../../contract/service.ts'
import { ChainChangedError, LogRangeTooLargeError } from '../../errors/chain.ts'
import type { BlockRef } from '../store/createStore.ts'
import { isRangeTooLargeError } from './isRangeTooLargeError.ts'
import { marketEvents } from './marketEvents.ts'

export type MarketLog = GetLogsReturnType<undefined, typeof marketEvents, true, bigint, bigint>[number]

export type ReadWindowParameters = {
  registry: Address
  escrow: Address
  /** Read for its events about a job's dispute (see marketEvents). */
  arbiter: Address
  fromBlock: bigint
  toBlock: bigint
  /** Hash of `toBlock` when the caller already has it (the head fetched at poll start). */
  toBlockHash?: Hash | undefined
  /** Records to read even without an event in this window (left stale by a rollback). */
  staleServiceIds?: Iterable<bigint>
  staleJobIds?: Iterable<bigint>
  /**
   * Jobs not to read although this window touches them: read earlier in the same scan, at the
   * latest block then, which is at or after this window (see scanRange).
   */
  readJobIds?: ReadonlySet<bigint>
}

/** Everything needed to apply one window, fetched before anything is applied. */
export type ReadWindowReturnType = {
  toBlock: BlockRef
  /** Decoded logs of the three contracts, in chain order. */
  logs: MarketLog[]
  /** Block time (unix seconds) of every block holding a log (applyLogs dates every event). */
  timestamps: ReadonlyMap<bigint, bigint>
  /** The current record of every service and job the window touches (jobs in `readJobIds` left out). */
  services: ReadonlyMap<bigint, Service>
  jobs: ReadonlyMap<bigint, Job>
}

/**
 * Reads one block window: the hash of its last block, then one `eth_getLogs` for the contracts
 * and every market event, then (issued together, so a batching transport sends one batch) the
 * headers of the blocks holding a job's logs and every touched service and job, many per `eth_call`
 * (readServices, readJobs). Reads happen at the latest block, so a record may be ahead of the
 * window; its events catch up.
 *
 * The last block's hash is fetched before the logs: if the chain reorganizes in between, the
 * stored hash is the old one and the next poll's reorg check catches it. A log whose block hash
 * differs from its header or, in the last block, from that block's hash (a reorg during this
 * window) fails the window with ChainChangedError.
 */
export async function readWindow(
  client: Client,
  { registry, escrow, arbiter, fromBlock, toBlock, toBlockHash, staleServiceIds = [], staleJobIds = [], readJobIds }: ReadWindowParameters,
): Promise<ReadWindowReturnType> {
  const toHash = toBlockHash ?? (await getBlock(client, { blockNumber: toBlock })).hash

  let logs: MarketLog[]
  try {
    logs = await readLogs(client, { address: [registry, escrow, arbiter], events: marketEvents, fromBlock, toBlock })
  } catch (cause) {
    if (isRangeTooLargeError(cause)) throw new LogRangeTooLargeError({ fromBlock, toBlock, cause })
    throw cause
  }

  const registryKey = registry.toLowerCase()
  const serviceIds = new Set(staleServiceIds)
  const jobIds = new Set(staleJobIds)
  const blockNumbers = new Set<bigint>()
  for (const log of logs) {
    // Every served event, a job's or a service's, carries its block's time.
    blockNumbers.add(log.blockNumber)
    if ('serviceId' in log.args && log.address.toLowerCase() === registryKey) serviceIds.add(log.args.serviceId)
    if (!('jobId' in log.args)) continue
    if (!readJobIds?.has(log.args.jobId)) jobIds.add(log.args.jobId)
  }

  const serviceIdList = [...serviceIds]
  const jobIdList = [...jobIds]
  const [headers, services, jobs] = await Promise.all([
    Promise.all([...blockNumbers].map((blockNumber) => getBlock(client, { blockNumber }))),
    readServices(client, { registry, ids: serviceIdList }),
    readJobs(client, { escrow, ids: jobIdList }),
  ])

  const hashes = new Map(headers.map((header) => [header.number, header.hash]))
  hashes.set(toBlock, hashes.get(toBlock) ?? toHash)
  for (const log of logs) {
    const hash = hashes.get(log.blockNumber)
    if (hash !== undefined && hash !== log.blockHash) throw new ChainChangedError({ blockNumber: log.blockNumber })
  }
  if (hashes.get(toBlock) !== toHash) throw new ChainChangedError({ blockNumber: toBlock })

  return {
    toBlock: { number: toBlock, hash: toHash },
    logs,
    timestamps: new Map(headers.map((header) => [header.number, header.timestamp])),
    services: new Map(services.map((service, index) => [serviceIdList[index] as bigint, service])),
    jobs: new Map(jobs.map((job, index) => [jobIdList[index] as bigint, job])),
  }
}
