import { toEventSelector, type Address, type Client, type GetLogsReturnType, type Hash, type RpcLog } from 'viem'
import { getBlock } from 'viem/actions'
import { readJobs } from '../../chain/read/readJobs.ts'
import { readLogs } from '../../chain/read/readLogs.ts'
import { readServices } from '../../chain/read/readServices.ts'
import { classifyRpcError } from '../../chain/rpc/classifyRpcError.ts'
import type { Job } from '../../contract/job.ts'
import type { Service } from '../../contract/service.ts'
import { ChainChangedError, IncompleteLogsError, LogRangeTooLargeError } from '../../errors/chain.ts'
import type { BlockRef } from '../store/createStore.ts'
import { checkCreatedIds } from './checkCreatedIds.ts'
import { findBloomMisses } from './findBloomMisses.ts'
import { arbiterJobEvents, escrowEvents, marketEvents, registryEvents } from './marketEvents.ts'
import { readNextId } from './readNextId.ts'

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
  /**
   * Block the records are read at (default: the latest): the scan's last block, so that once the
   * scan is applied every record it read is the chain's at the cursor (the self-check compares there).
   */
  readAt?: bigint | undefined
  /** A window of at most this many blocks has every block's logsBloom checked (default 0: none). */
  bloomCheckBlocks?: bigint | undefined
  /**
   * The contracts' next ids at `fromBlock - 1` when known (the last window's `nextIds`); read
   * there otherwise. "first": the first window of the indexer, whose block before may be older
   * than a full node's state: when that read fails, the window's own first creations stand in.
   */
  nextIdsBefore?: NextIds | 'first' | undefined
}

/** `nextServiceId()` and `nextJobId()` at a block. */
export type NextIds = { service: bigint; job: bigint }

/** Everything needed to apply one window, fetched before anything is applied. */
export type ReadWindowReturnType = {
  toBlock: BlockRef
  /** The next ids at `toBlock`: what the window's creations were counted against. */
  nextIds: NextIds
  /** Decoded logs of the three contracts, in chain order. */
  logs: MarketLog[]
  /** Block time (unix seconds) of every block holding a log (applyLogs dates every event). */
  timestamps: ReadonlyMap<bigint, bigint>
  /** The current record of every service and job the window touches (jobs in `readJobIds` left out). */
  services: ReadonlyMap<bigint, Service>
  jobs: ReadonlyMap<bigint, Job>
}

/**
 * Reads one block window: the hash of its last block, then one `eth_getLogs` for the three contracts
 * and every market event with `nextServiceId()`/`nextJobId()` before and at the end of the window,
 * then (issued together, so a batching transport sends one batch) the headers of the blocks
 * holding a job's logs and every touched service and job, many per `eth_call` (readServices,
 * readJobs). Records are read at `readAt` (or the latest block), so a record may be ahead of the
 * window; its events catch up.
 *
 * Nothing is returned unless the answer is known complete, because a node behind its load
 * balancer answers `[]` or part of the logs and nothing else tells: the window must hold exactly
 * one creation event per id the contracts handed out in it (checkCreatedIds), every log must
 * decode (readLogs), and in a window of at most `bloomCheckBlocks` blocks (following the head),
 * a block whose logsBloom may hold one of our logs that the answer lacks is asked for its logs by
 * hash: if that finds more, the window fails with IncompleteLogsError and is read again.
 *
 * The last block's hash is fetched before the logs: if the chain reorganizes in between, the
 * stored hash is the old one and the next poll's reorg check catches it. A log whose block hash
 * differs from its header or, in the last block, from that block's hash (a reorg during this
 * window) fails the window with ChainChangedError.
 */
export async function readWindow(
  client: Client,
  {
    registry,
    escrow,
    arbiter,
    fromBlock,
    toBlock,
    toBlockHash,
    staleServiceIds = [],
    staleJobIds = [],
    readJobIds,
    readAt,
    bloomCheckBlocks = 0n,
    nextIdsBefore,
  }: ReadWindowParameters,
): Promise<ReadWindowReturnType> {
  const toHash = toBlockHash ?? (await getBlock(client, { blockNumber: toBlock })).hash

  // Known, or read at the block before (the cursor: a recent block, in a full node's state).
  const known = fromBlock === 0n ? { service: 1n, job: 1n } : nextIdsBefore === 'first' ? undefined : nextIdsBefore
  const beforeBlock = fromBlock - 1n
  const nextIdAt = (contract: 'registry' | 'escrow', blockNumber: bigint, value?: bigint): Promise<bigint | undefined> => {
    if (value !== undefined) return Promise.resolve(value)
    const read = readNextId(client, { contract, address: contract === 'registry' ? registry : escrow, blockNumber })
    return nextIdsBefore === 'first' && blockNumber === beforeBlock ? read.catch(() => undefined) : read
  }
  let logs: MarketLog[]
  let nextIds: (bigint | undefined)[]
  try {
    ;[logs, ...nextIds] = await Promise.all([
      readLogs(client, { address: [registry, escrow, arbiter], events: marketEvents, fromBlock, toBlock }),
      nextIdAt('registry', beforeBlock, known?.service),
      nextIdAt('registry', toBlock),
      nextIdAt('escrow', beforeBlock, known?.job),
      nextIdAt('escrow', toBlock),
    ])
  } catch (cause) {
    if (classifyRpcError(cause) === 'too-large') throw new LogRangeTooLargeError({ fromBlock, toBlock, cause })
    throw cause
  }
  const [servicesBefore, servicesAfter, jobsBefore, jobsAfter] = nextIds as [bigint | undefined, bigint, bigint | undefined, bigint]
  const createdServices = logs.flatMap((log) => (log.eventName === 'ServiceRegistered' ? [log.args.serviceId] : []))
  const createdJobs = logs.flatMap((log) => (log.eventName === 'JobCreated' ? [log.args.jobId] : []))
  checkCreatedIds({
    kind: 'service',
    created: createdServices,
    nextBefore: servicesBefore ?? lowest(createdServices) ?? servicesAfter,
    nextAfter: servicesAfter,
    fromBlock,
    toBlock,
  })
  checkCreatedIds({
    kind: 'job',
    created: createdJobs,
    nextBefore: jobsBefore ?? lowest(createdJobs) ?? jobsAfter,
    nextAfter: jobsAfter,
    fromBlock,
    toBlock,
  })
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
    if (!readJobIds?.has(log.args.jobId)) jobIds.add(log.args.jobId)
  }

  const serviceIdList = [...serviceIds]
  const jobIdList = [...jobIds]
  const headerNumbers = checkBlooms ? blockRange(fromBlock, toBlock) : [...blockNumbers]
  const [allHeaders, services, jobs] = await Promise.all([
    Promise.all(headerNumbers.map((blockNumber) => getBlock(client, { blockNumber }))),
    readServices(client, { registry, ids: serviceIdList, blockNumber: readAt }),
    readJobs(client, { escrow, ids: jobIdList, blockNumber: readAt }),
  ])
  if (checkBlooms) await checkBloomMisses(client, { registry, escrow, arbiter, fromBlock, toBlock, headers: allHeaders, logs })
  const headers = checkBlooms ? allHeaders.filter((header) => blockNumbers.has(header.number)) : allHeaders

  const hashes = new Map(headers.map((header) => [header.number, header.hash]))
  hashes.set(toBlock, hashes.get(toBlock) ?? toHash)
  for (const log of logs) {
    const hash = hashes.get(log.blockNumber)
    if (hash !== undefined && hash !== log.blockHash) throw new ChainChangedError({ blockNumber: log.blockNumber })
  }
  if (hashes.get(toBlock) !== toHash) throw new ChainChangedError({ blockNumber: toBlock })

  return {
    toBlock: { number: toBlock, hash: toHash },
    nextIds: { service: servicesAfter, job: jobsAfter },
    logs,
    timestamps: new Map(headers.map((header) => [header.number, header.timestamp])),
    services: new Map(services.map((service, index) => [serviceIdList[index] as bigint, service])),
    jobs: new Map(jobs.map((job, index) => [jobIdList[index] as bigint, job])),
  }
}

function blockRange(fromBlock: bigint, toBlock: bigint): bigint[] {
  const numbers: bigint[] = []
  for (let number = fromBlock; number <= toBlock; number += 1n) numbers.push(number)
  return numbers
}

const sourceSelectors = {
  registry: registryEvents.map((event) => toEventSelector(event)),
  escrow: escrowEvents.map((event) => toEventSelector(event)),
  arbiter: arbiterJobEvents.map((event) => toEventSelector(event)),
}

/**
 * Asks every block whose bloom may hold a log the answer lacks for its logs by hash; one more log
 * there than in the answer fails the window.
 */
async function checkBloomMisses(
  client: Client,
  {
    registry,
    escrow,
    arbiter,
    fromBlock,
    toBlock,
    headers,
    logs,
  }: {
    registry: Address
    escrow: Address
    arbiter: Address
    fromBlock: bigint
    toBlock: bigint
    headers: readonly { number: bigint; hash: Hash; logsBloom: `0x${string}` | null }[]
    logs: readonly MarketLog[]
  },
): Promise<void> {
  const misses = findBloomMisses({
    headers,
    logs,
    sources: [
      { address: registry, selectors: sourceSelectors.registry },
      { address: escrow, selectors: sourceSelectors.escrow },
      { address: arbiter, selectors: sourceSelectors.arbiter },
    ],
    fromBlock,
    toBlock,
  })
  if (misses.length === 0) return
  const hashes = new Map(headers.map((header) => [header.number, header.hash]))
  // Every log of the block, unfiltered: a node that answers none for a block whose bloom is not
  // empty is lying (Ponder's check), and our logs among them are counted here, not asked for again.
  const byHash = await Promise.all(
    misses.map(
      (blockHash) =>
        client.request({ method: 'eth_getLogs', params: [{ blockHash: hashes.get(blockHash) as Hash }] }) as Promise<RpcLog[]>,
    ),
  )
  const ours = new Map([
    [registry.toLowerCase(), new Set<string>(sourceSelectors.registry)],
    [escrow.toLowerCase(), new Set<string>(sourceSelectors.escrow)],
    [arbiter.toLowerCase(), new Set<string>(sourceSelectors.arbiter)],
  ])
  for (const [index, blockLogs] of byHash.entries()) {
    const blockNumber = misses[index] as bigint
    if (blockLogs.length === 0) {
      throw new IncompleteLogsError({ fromBlock, toBlock, reason: `block ${blockNumber} has a logsBloom, but the node answers no logs for it` })
    }
    const answered = new Set(logs.filter((log) => log.blockNumber === blockNumber).map((log) => log.logIndex))
    const missing = blockLogs.filter(
      (log) =>
        ours.get(log.address.toLowerCase())?.has(log.topics[0] ?? '') === true &&
        log.logIndex !== null &&
        !answered.has(Number(log.logIndex)),
    )
    if (missing.length > 0) {
      throw new IncompleteLogsError({
        fromBlock,
        toBlock,
        reason: `block ${blockNumber} holds ${missing.length} more of our logs (first in transaction ${missing[0]?.transactionHash})`,
      })
    }
  }
}

function lowest(ids: readonly bigint[]): bigint | undefined {
  return ids.reduce<bigint | undefined>((low, id) => (low === undefined || id < low ? id : low), undefined)
}
