import type { Address } from 'viem'
import type { FeedEvent, JobFeedData } from '../../contract/feed.ts'
import { IndexerFeedError } from '../../errors/seller.ts'
import { createCursorFile } from './createCursorFile.ts'
import { describeFirstLine } from './describeFirstLine.ts'
import { followIndexerFeed } from './followIndexerFeed.ts'
import type { JobSource } from './JobSource.ts'
import { readIndexerPendingJobs } from './readIndexerPendingJobs.ts'
import type { JobCreatedRecord } from './scanJobCreated.ts'
import { toJobCreatedRecord } from './toJobCreatedRecord.ts'

export type CreateFeedJobSourceParameters = {
  /** The REST indexer whose live feed (`GET /v1/events`) tells of the jobs. */
  indexerUrl: string
  /** The chain the seller's node serves: events of another chain's indexer are ignored. */
  chainId: number
  /** The seller accounts, each once. */
  sellers: readonly Address[]
  serviceIds: readonly bigint[]
  /** Where the feed's cursor is kept across restarts; memory only when absent. */
  cursorFile?: string | undefined
  /** Deadline of each request to the indexer (the stream's until its headers). */
  timeoutMs: number
  /** Called when the feed queued a job or asks for a REST read, so the answering loop runs at once. */
  wake: () => void
  log: (line: string) => void
}

const pendingState = 0
const maxRestBackoffMs = 30_000

/**
 * Learns of the jobs of the seller's services from an indexer's live feed instead of scanning the
 * node. Jobs the feed sends Pending are queued (a job a reorg removed is dropped, and queued again
 * if it comes back Pending); the chain decides, when each is answered, whether it is still the
 * seller's to answer, so a job sent again (a replay, a restart, a reorg) is never answered twice.
 * When the feed cannot tell what came before (a first start without a cursor, a `reset`), the
 * Pending jobs are read over REST, once the stream is open so nothing falls between the two. The
 * cursor saved after each answering pass is the id just before the oldest job still queued (none
 * while a job read over REST is: only a REST read finds it again), else the last id received.
 */
export function createFeedJobSource({ indexerUrl, chainId, sellers, serviceIds, cursorFile, timeoutMs, wake, log }: CreateFeedJobSourceParameters): JobSource {
  const pending = new Map<bigint, JobCreatedRecord>()
  const resumeIds = new Map<bigint, string | null>()
  const served = new Set(serviceIds)
  const file = cursorFile === undefined ? undefined : createCursorFile(cursorFile, { log })
  let saved = file?.read() ?? null
  let lastId = saved
  let restNeeded = false
  let restFailures = 0
  let restRetryAt = 0
  let restReported: string | undefined
  let otherChainReported = false
  const controller = new AbortController()

  const queue = (record: JobCreatedRecord, resumeId: string | null): void => {
    if (pending.has(record.jobId)) return
    pending.set(record.jobId, record)
    resumeIds.set(record.jobId, resumeId)
  }
  const onJob = ({ jobId, job }: JobFeedData): void => {
    if (job === null) {
      // Removed by a reorg: nothing to answer unless it comes back.
      pending.delete(BigInt(jobId))
      resumeIds.delete(BigInt(jobId))
      return
    }
    if (!served.has(BigInt(job.serviceId)) || job.state !== pendingState) return
    const record = toJobCreatedRecord(job)
    if (record === undefined) log(`The indexer sent job ${jobId} without its JobCreated event: it is left for a REST read.`)
    else queue(record, lastId)
  }
  const onEvent = (event: FeedEvent): void => {
    // A reorg and its corrections carry no id.
    const id = 'id' in event && typeof event.id === 'string' ? event.id : undefined
    const eventChain = id === undefined ? chainId : Number(id.slice(0, id.indexOf('-')))
    if (eventChain !== chainId) {
      if (!otherChainReported) log(`The indexer at ${indexerUrl} follows chain ${eventChain}, not this seller's chain ${chainId}: its events are ignored.`)
      otherChainReported = true
      return
    }
    if (event.event === 'job') onJob(event.data)
    if (event.event === 'reorg') log(`The indexer's feed reports a reorg back to block ${event.data.ancestor.blockNumber} (${event.data.depth} deep): the jobs it touched come again.`)
    if (event.event === 'reset') {
      log(`The indexer's feed cannot resume after ${lastId ?? 'the id given'} (${event.data.reason}): reading its Pending jobs over REST, then following it after ${event.data.cursor}.`)
      restNeeded = true
    }
    if (id !== undefined) lastId = id
  }

  log(`Following the indexer's feed at ${indexerUrl} ${lastId === null ? 'after reading its Pending jobs' : `after ${lastId}`}.`)
  const following = (async (): Promise<void> => {
    const filters: Record<string, string> = { types: 'job' }
    // One seller (or one service) is filtered by the indexer; several are told apart here.
    if (sellers.length === 1) filters.seller = sellers[0] as string
    if (serviceIds.length === 1) filters.serviceId = String(serviceIds[0])
    for await (const item of followIndexerFeed({ indexerUrl, filters, after: lastId ?? undefined, signal: controller.signal, connectTimeoutMs: timeoutMs, log })) {
      // A stream from now on says nothing of what came before it: REST does.
      if (item.type === 'open' && item.after === undefined) restNeeded = true
      if (item.type === 'event') onEvent(item.event)
      wake()
    }
  })()

  return {
    pending,
    async refresh() {
      if (!restNeeded || Date.now() < restRetryAt) return
      // Cleared first: a reset that comes during the read asks for another.
      restNeeded = false
      try {
        const records = await readIndexerPendingJobs({ indexerUrl, sellers, serviceIds: served, timeoutMs })
        for (const record of records) queue(record, null)
        log(`Read ${records.length} Pending job${records.length === 1 ? '' : 's'} of this seller's services from the indexer's REST API.`)
        restFailures = 0
        restReported = undefined
      } catch (error) {
        restNeeded = true
        restFailures += 1
        const wait = (error instanceof IndexerFeedError ? error.retryAfterMs : undefined) ?? Math.min(1_000 * 2 ** (restFailures - 1), maxRestBackoffMs)
        restRetryAt = Date.now() + wait
        const message = describeFirstLine(error)
        if (message !== restReported) log(`${message} The Pending jobs are read again in ${Math.ceil(wait / 1_000)} s.`)
        restReported = message
      }
    },
    save() {
      if (file === undefined) return
      for (const jobId of resumeIds.keys()) if (!pending.has(jobId)) resumeIds.delete(jobId)
      const queued = [...resumeIds.values()]
      const cursor = restNeeded || queued.includes(null) ? null : (queued[0] ?? lastId)
      if (cursor === saved) return
      file.write(cursor)
      saved = cursor
    },
    async stop() {
      controller.abort()
      await following
    },
  }
}
