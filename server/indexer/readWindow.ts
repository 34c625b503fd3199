import type { Client, GetLogsReturnType, Hash } from 'viem'
import { getBlock } from 'viem/actions'
import { readJobs } from '../../chain/read/readJobs.ts'
import { readLogs } from '../../chain/read/readLogs.ts'
import { readServices } from '../../chain/read/readServices.ts'
import { classifyRpcError } from '../../chain/rpc/classifyRpcError.ts'
import type { IndexedDeployment } from '../../config/deployment.ts'
import type { Job } from '../../contract/job.ts'
import type { Service } from '../../contract/service.ts'
import { ChainChangedError, LogRangeTooLargeError, MissingCreationsError } from '../../errors/chain.ts'
import type { CreationCount, Cursor } from '../store/StoreReader.ts'
import { checkBloomMisses } from './checkBloomMisses.ts'
import { countCreations, type CountCreationsReturnType } from './countCreations.ts'
import { marketEvents } from './marketEvents.ts'
import { readNextId } from './readNextId.ts'

export type MarketLog = GetLogsReturnType<undefined, typeof marketEvents, true, bigint, bigint>[number]

export type ReadWindowParameters = {
  /** The registry, the escrow and the arbiter (read for its events about a job's dispute, see marketEvents). */
  deployment: IndexedDeployment
  fromBlock: bigint
  toBlock: bigint
  /** Hash of `toBlock` when the caller already has it (the head fetched at poll start). */
  toBlockHash?: Hash | undefined
  /**
   * Whether to read `toBlock`'s header for its hash when not given (default true). A window far
   * below the head, deeper than any reorg, needs none: its cursor is kept without a hash.
   */
  readToBlockHash?: boolean | undefined
  /** Records to read even without an event in this window (left stale by a rollback). */
  staleServiceIds?: Iterable<bigint>
  staleJobIds?: Iterable<bigint>
  /**
   * Jobs read earlier in the same scan, with the block they were read at: one read at or after
   * `toBlock` already holds what this window's events did, and is not read again (see scanRange).
   */
  readJobsAt?: ReadonlyMap<bigint, bigint>
  /**
   * Block the records are read at (default: the latest): a recent block, whose state every node
   * holds (a full node keeps the last 128 blocks'), at or after `toBlock`. Records may so be ahead
   * of the window: their events catch up.
   */
  readAt?: bigint | undefined
  /** A window of at most this many blocks has every block's logsBloom checked (default 0: none). */
  bloomCheckBlocks?: bigint | undefined
  /** The creations counted up to `fromBlock - 1` (the store's). */
  creations: CreationCount
  /**
   * Read the contracts' next ids at `toBlock` and hold the count to them: only for a recent block
   * (the last window of a scan), since a full node has no state of older ones.
   */
  checkCountAtEnd?: boolean | undefined
  /** Time of the first indexed block: a record created before it is none of the window's. */
  firstBlockTimestamp: bigint
}

/** Everything needed to apply one window, fetched before anything is applied. */
export type ReadWindowReturnType = {
  toBlock: Cursor
  /** The creations counted up to `toBlock`. */
  creations: CreationCount
  /** Decoded logs of the three contracts, in chain order. */
  logs: MarketLog[]
  /** Block time (unix seconds) of every block holding a log (applyLogs dates every event). */
  timestamps: ReadonlyMap<bigint, bigint>
  /** The current record of every service and job the window touches (jobs read at or after `toBlock` left out). */
  services: ReadonlyMap<bigint, Service>
  jobs: ReadonlyMap<bigint, Job>
}

/**
 * Reads one block window: the hash of its last block (when needed), then one `eth_getLogs` for the
 * three contracts and every market event (with `nextServiceId()`/`nextJobId()` at its last block
 * when the count is checked there), then (issued together, so a batching transport sends one
 * batch) the headers of the blocks holding a job's logs and every touched service and job, many
 * per `eth_call` (readServices, readJobs; in a window deeper than any reorg the headers of blocks
 * holding only creations come after the records, which date them). Records are read at `readAt` (or the latest block), so a
 * record may be ahead of the window; its events catch up. No state older than `readAt` or, when
 * checked, `toBlock` is read, so a full node (no archive) serves it.
 *
 * Nothing is returned unless the answer is known complete, because a node behind its load
 * balancer answers `[]` or part of the logs and nothing else tells: creation events must continue
 * the count without a gap and, at a checked block, reach the contracts' next ids (countCreations);
 * while no creation of a kind is held yet, the record just below the first one seen must predate
 * the first block; every log must decode (readLogs); and in a window of at most
 * `bloomCheckBlocks` blocks (following the head), a block whose logsBloom may hold one of our
 * logs that the answer lacks is asked for its logs by hash: if that finds more, the window fails
 * with IncompleteLogsError and is read again.
 *
 * The last block's hash is fetched before the logs: if the chain reorganizes in between, the
 * stored hash is the old one and the next poll's reorg check catches it. A log whose block hash
 * differs from its header or, in the last block, from that block's hash (a reorg during this
 * window) fails the window with ChainChangedError.
 */
export async function readWindow(
  client: Client,
  {
    deployment,
    fromBlock,
    toBlock,
    toBlockHash,
    readToBlockHash = true,
    staleServiceIds = [],
    staleJobIds = [],
    readJobsAt,
    readAt,
    bloomCheckBlocks = 0n,
    creations,
    checkCountAtEnd = false,
    firstBlockTimestamp,
  }: ReadWindowParameters,
): Promise<ReadWindowReturnType> {
  const { registry, escrow } = deployment
  const toHash = toBlockHash ?? (readToBlockHash ? (await getBlock(client, { blockNumber: toBlock })).hash : undefined)

  const [logs, nextAtEnd] = await Promise.all([
    readMarketLogs(client, { deployment, fromBlock, toBlock }),
    checkCountAtEnd
      ? Promise.all([
          readNextId(client, { contract: 'registry', address: registry, blockNumber: toBlock }),
          readNextId(client, { contract: 'escrow', address: escrow, blockNumber: toBlock }),
        ])
      : undefined,
  ])
  const { services, jobs } = countWindowCreations(logs, { creations, nextAtEnd, fromBlock, toBlock })
  const checkBlooms = toBlock - fromBlock + 1n <= bloomCheckBlocks

  const registryKey = registry.toLowerCase()
  const serviceIds = new Set(staleServiceIds)
  const jobIds = new Set(staleJobIds)
  const blockNumbers = new Set<bigint>()
  for (const log of logs) {
    // Every served event, a job's or a service's, carries its block's time.
    blockNumbers.add(log.blockNumber)
    if ('serviceId' in log.args && log.address.toLowerCase() === registryKey) serviceIds.add(log.args.serviceId)
    if (!('jobId' in log.args)) continue
    const readAtBlock = readJobsAt?.get(log.args.jobId)
    if (readAtBlock === undefined || readAtBlock < toBlock) jobIds.add(log.args.jobId)
  }

  const serviceIdList = [...serviceIds]
  const jobIdList = [...jobIds]
  const headerNumbers = checkBlooms ? blockRange(fromBlock, toBlock) : [...blockNumbers]
  const leadOf = (lead: bigint | undefined, first: bigint | undefined): bigint | undefined =>
    first === undefined && lead !== undefined && lead > 1n ? lead : undefined
  const serviceLead = leadOf(services.lead, creations.first.service)
  const jobLead = leadOf(jobs.lead, creations.first.job)
  // A window deeper than any reorg (no hash of its own to keep) has no header to compare its logs
  // with: a block whose logs are all creations is dated by the created records' own time
  // (registeredAt, createdAt: that block's timestamp), read just now, one header read less each.
  // Only a block whose logs are all creations can be so dated: the others' headers are read with
  // the records, in the same batch, and only the rest wait for the records (a round trip each).
  const deep = toHash === undefined && !checkBlooms
  const datable = deep ? blocksOfCreationsOnly(logs) : new Set<bigint>()
  const [firstHeaders, serviceRecords, jobRecords, [serviceBelowLead], [jobBelowLead]] = await Promise.all([
    Promise.all(headerNumbers.filter((blockNumber) => !datable.has(blockNumber)).map((blockNumber) => getBlock(client, { blockNumber }))),
    readServices(client, { registry, ids: serviceIdList, blockNumber: readAt }),
    readJobs(client, { escrow, ids: jobIdList, blockNumber: readAt }),
    readServices(client, { registry, ids: serviceLead === undefined ? [] : [serviceLead - 1n], blockNumber: readAt }),
    readJobs(client, { escrow, ids: jobLead === undefined ? [] : [jobLead - 1n], blockNumber: readAt }),
  ])
  const servicesRead = new Map(serviceRecords.map((service, index) => [serviceIdList[index] as bigint, service]))
  const jobsRead = new Map(jobRecords.map((job, index) => [jobIdList[index] as bigint, job]))
  const creationTimes = deep ? dateByCreations(logs, { services: servicesRead, jobs: jobsRead }) : new Map<bigint, bigint>()
  const undated = [...datable].filter((blockNumber) => !creationTimes.has(blockNumber))
  const allHeaders = [...firstHeaders, ...(await Promise.all(undated.map((blockNumber) => getBlock(client, { blockNumber }))))]
  // While no creation of a kind is held, the first id seen is the first one of the range only if
  // the record below it predates the first block (block times only grow).
  const checkLead = (kind: 'service' | 'job', lead: bigint | undefined, createdAt: string | undefined): void => {
    if (lead === undefined || createdAt === undefined || BigInt(createdAt) < firstBlockTimestamp) return
    throw new MissingCreationsError({ kind, fromId: lead - 1n, toId: lead - 1n, fromBlock, toBlock })
  }
  checkLead('service', serviceLead, serviceBelowLead?.registeredAt)
  checkLead('job', jobLead, jobBelowLead?.createdAt)
  if (checkBlooms) await checkBloomMisses(client, { deployment, fromBlock, toBlock, headers: allHeaders, logs })
  const headers = checkBlooms ? allHeaders.filter((header) => blockNumbers.has(header.number)) : allHeaders
  const endHash = checkLogBlockHashes(logs, { headers, toBlock, toHash })

  const firstOf = (first: bigint | undefined, lead: bigint | undefined): bigint | undefined => first ?? lead
  return {
    toBlock: { number: toBlock, hash: endHash },
    creations: {
      next: { service: services.next, job: jobs.next },
      first: { service: firstOf(creations.first.service, services.lead), job: firstOf(creations.first.job, jobs.lead) },
      checkedAt: checkCountAtEnd ? toBlock : creations.checkedAt,
    },
    logs,
    timestamps: new Map([...creationTimes, ...headers.map((header) => [header.number, header.timestamp] as const)]),
    services: servicesRead,
    jobs: jobsRead,
  }
}

/**
 * The window's logs of the three contracts. Only the eth_getLogs' own refusal for its size, or its
 * answer late, asks the window smaller (LogRangeTooLargeError: sent again as it was, a late one
 * would queue behind the answer the node is still computing); a rate limit or a failed transport
 * says nothing about the range.
 */
function readMarketLogs(
  client: Client,
  { deployment: { registry, escrow, arbiter }, fromBlock, toBlock }: { deployment: IndexedDeployment; fromBlock: bigint; toBlock: bigint },
): Promise<MarketLog[]> {
  return readLogs(client, { address: [registry, escrow, arbiter], events: marketEvents, fromBlock, toBlock }).catch((cause: unknown) => {
    const kind = classifyRpcError(cause)
    if (kind === 'too-large' || kind === 'timeout') throw new LogRangeTooLargeError({ fromBlock, toBlock, reason: kind === 'timeout' ? 'timeout' : 'refused', cause })
    throw cause
  })
}

/** The window's creations of each kind, counted on from `creations` and held to the next ids read at its end (countCreations). */
function countWindowCreations(
  logs: readonly MarketLog[],
  {
    creations,
    nextAtEnd,
    fromBlock,
    toBlock,
  }: { creations: CreationCount; nextAtEnd: readonly [bigint, bigint] | undefined; fromBlock: bigint; toBlock: bigint },
): { services: CountCreationsReturnType; jobs: CountCreationsReturnType } {
  const services = countCreations({
    kind: 'service',
    created: logs.flatMap((log) => (log.eventName === 'ServiceRegistered' ? [log.args.serviceId] : [])),
    nextBefore: creations.next.service,
    nextAtEnd: nextAtEnd?.[0],
    fromBlock,
    toBlock,
  })
  const jobs = countCreations({
    kind: 'job',
    created: logs.flatMap((log) => (log.eventName === 'JobCreated' ? [log.args.jobId] : [])),
    nextBefore: creations.next.job,
    nextAtEnd: nextAtEnd?.[1],
    fromBlock,
    toBlock,
  })
  return { services, jobs }
}

/**
 * The hash of the window's last block, once every log is known to lie in the block of that hash
 * (its header's, or `toHash` for the last block): a log whose block changed (a reorg during this
 * window) fails the window with ChainChangedError.
 */
function checkLogBlockHashes(
  logs: readonly MarketLog[],
  { headers, toBlock, toHash }: { headers: readonly { number: bigint; hash: Hash }[]; toBlock: bigint; toHash: Hash | undefined },
): Hash | undefined {
  const hashes = new Map(headers.map((header) => [header.number, header.hash]))
  const endHash = hashes.get(toBlock) ?? toHash
  if (endHash !== undefined) hashes.set(toBlock, endHash)
  for (const log of logs) {
    const hash = hashes.get(log.blockNumber)
    if (hash !== undefined && hash !== log.blockHash) throw new ChainChangedError({ blockNumber: log.blockNumber })
  }
  if (toHash !== undefined && hashes.get(toBlock) !== toHash) throw new ChainChangedError({ blockNumber: toBlock })
  return endHash
}

/** The blocks whose logs are all creations (ServiceRegistered, JobCreated): the ones dateByCreations may date. */
function blocksOfCreationsOnly(logs: readonly MarketLog[]): Set<bigint> {
  const blocks = new Set<bigint>()
  const others = new Set<bigint>()
  for (const log of logs) {
    if (log.eventName === 'ServiceRegistered' || log.eventName === 'JobCreated') blocks.add(log.blockNumber)
    else others.add(log.blockNumber)
  }
  for (const blockNumber of others) blocks.delete(blockNumber)
  return blocks
}

/**
 * The time of each block whose logs are all creations of records read (ServiceRegistered,
 * JobCreated), from those records; a block whose records disagree is left to its header.
 */
function dateByCreations(
  logs: readonly MarketLog[],
  { services, jobs }: { services: ReadonlyMap<bigint, Service>; jobs: ReadonlyMap<bigint, Job> },
): Map<bigint, bigint> {
  const times = new Map<bigint, bigint | undefined>()
  for (const log of logs) {
    const created =
      log.eventName === 'ServiceRegistered'
        ? services.get(log.args.serviceId)?.registeredAt
        : log.eventName === 'JobCreated'
          ? jobs.get(log.args.jobId)?.createdAt
          : undefined
    const time = created === undefined ? undefined : BigInt(created)
    const known = times.get(log.blockNumber)
    times.set(log.blockNumber, times.has(log.blockNumber) && known !== time ? undefined : time)
  }
  return new Map([...times].filter((entry): entry is [bigint, bigint] => entry[1] !== undefined))
}

function blockRange(fromBlock: bigint, toBlock: bigint): bigint[] {
  const numbers: bigint[] = []
  for (let number = fromBlock; number <= toBlock; number += 1n) numbers.push(number)
  return numbers
}
