import type { StoreBatch, StoreReader } from '../store/StoreReader.ts'
import { createFeedJournal, recordKey, type FeedJournal, type FeedJournalLimits, type FeedReorg } from './createFeedJournal.ts'
import type { FeedEntry, RecordSubject } from './FeedEntry.ts'
import { matchesFeedFilter, type FeedFilter } from './FeedFilter.ts'
import { compareFeedPositions, headRank, type FeedPosition } from './FeedPosition.ts'
import { formatFeedCursor, witnessPrefixOf, type FeedCursor } from './feedCursor.ts'
import { toJobEntry, toServiceEntry, type ToRecordEntryParameters } from './toRecordEntry.ts'
import { toSseFrame } from './toSseFrame.ts'
import type { FeedResetReason } from '../../contract/feed.ts'

/** A stream as the feed sees it: what it wants, and where its events go. */
export type FeedSubscriber = {
  filter: FeedFilter
  /** Takes one whole event (or several) to send; never throws. */
  send(frame: string): void
  /** The feed can no longer serve the stream (the index was cleared): end it, the client resumes later. */
  end(): void
}

export type FeedOpening = {
  /** What the stream sends first: the events after the client's id (or a reorg, or a reset), in order. */
  replay: string[]
  /** Stops sending to the stream. */
  close(): void
}

export type LiveFeed = {
  /** Whether streams are served: the initial back-fill is done (before, the route answers 503). */
  readonly ready: boolean
  /** Streams open now. */
  readonly streams: number
  /** Opens a stream from `cursor` (undefined: from now on); only while `ready`. */
  open(parameters: { cursor: FeedCursor | undefined; subscriber: FeedSubscriber }): FeedOpening
  stop(): void
}

export type CreateLiveFeedParameters = {
  store: StoreReader
  chainId: number
  journal: FeedJournalLimits
}

/**
 * The live feed: after each batch the store applies, the changed jobs and services become events
 * (each the record as REST serves it, made into text once), kept for resumption and sent to every
 * stream whose filters match, with a head event. The feed follows the store's branch by its
 * recent block hashes, so a writer's rollback and a replica's catch-up over one look alike: when
 * the last head sent is no longer on it, the events above the newest head still on it are given
 * up, a `reorg` goes out, and every record they touched is sent again as it stands.
 */
export function createLiveFeed({ store, chainId, journal: limits }: CreateLiveFeedParameters): LiveFeed {
  const journal = createFeedJournal(limits)
  const subscribers = new Set<FeedSubscriber>()
  let live = false

  const onChain = (head: FeedPosition): boolean => isOnStoreBranch(store, head)
  const broadcast = (entries: readonly FeedEntry[]): void => {
    for (const subscriber of subscribers) {
      let frames = ''
      for (const { subject, frame } of entries) if (matchesFeedFilter(subscriber.filter, subject)) frames += frame
      if (frames !== '') subscriber.send(frames)
    }
  }
  const recordParameters = (head: FeedPosition, since: bigint, withoutId = false): Omit<ToRecordEntryParameters, 'removedSubject'> => ({ store, chainId, head, since, withoutId })

  const onBatch = ({ serviceIds, jobIds }: StoreBatch): void => {
    const cursor = store.sync.cursor
    if (store.sync.backfilledAt === undefined || cursor?.hash === undefined) {
      if (live) endAll()
      return
    }
    const head: FeedPosition = { block: cursor.number, rank: headRank, witness: cursor.hash }
    if (!live) {
      // The first batch after the back-fill (or a load) is where resumption starts: nothing before it is kept.
      journal.reset(head)
      live = true
      return
    }
    const given = new Map<string, RecordSubject>()
    const last = journal.lastHead as FeedPosition
    if (!onChain(last)) {
      const reorg = rollBack(journal, onChain)
      if (reorg === undefined) {
        endAll()
        journal.reset(head)
        live = true
        return
      }
      broadcast([{ position: reorg.ancestor, subject: { kind: 'head' }, frame: reorgFrame(reorg.ancestor, last.block) }])
      for (const subject of reorg.subjects) given.set(recordKey(subject), subject)
    }
    const since = (journal.lastHead as FeedPosition).block
    const moved = compareFeedPositions(head, journal.lastHead as FeedPosition) > 0 || head.witness !== journal.lastHead?.witness
    const entries: FeedEntry[] = moved ? [{ position: head, subject: { kind: 'head' }, frame: headFrame(chainId, head) }] : []
    const parameters = recordParameters(head, since)
    for (const jobId of jobIds) entries.push(toJobEntry(jobId, { ...parameters, removedSubject: take(given, `job ${jobId}`) }))
    for (const serviceId of serviceIds) entries.push(toServiceEntry(serviceId, { ...parameters, removedSubject: take(given, `service ${serviceId}`) }))
    for (const subject of given.values()) entries.push(toSubjectEntry(subject, { ...parameters, removedSubject: subject }))
    if (entries.length === 0) return
    entries.sort((a, b) => compareFeedPositions(a.position, b.position))
    journal.append(entries)
    broadcast(entries)
  }
  const endAll = (): void => {
    live = false
    for (const subscriber of subscribers) subscriber.end()
    subscribers.clear()
  }
  const unwatch = store.watchBatches(onBatch)

  const reset = (reason: FeedResetReason, message: string): string[] => {
    const id = formatFeedCursor(chainId, journal.lastHead as FeedPosition)
    return [toSseFrame({ id, event: 'reset', data: { reason, message: `${message} Read the REST API again, then resume after this event's id.`, cursor: id } })]
  }
  const replayFrom = (cursor: FeedCursor, filter: FeedFilter): string[] => {
    if (cursor.chainId !== chainId) return reset('other_chain', `The id given is of chain ${cursor.chainId}; this indexer follows chain ${chainId}.`)
    const tooOld = (position: Omit<FeedPosition, 'witness'>): boolean => journal.floor !== undefined && compareFeedPositions(position, journal.floor) < 0
    const keptSince = `This indexer keeps the events after block ${journal.floor?.block ?? '?'}.`
    if (isWitnessed(store, journal, cursor, onChain)) {
      if (tooOld(cursor)) return reset('cursor_too_old', `The id given is older than the events kept. ${keptSince}`)
      return framesFor(journal.after(cursor), filter)
    }
    const reorg = findGivenUp(journal, cursor, onChain)
    // Below the kept events the store may hold no hash to check the id by (a restarted indexer
    // back-fills in windows and keeps their last blocks'): too old, not known to be off the chain.
    if (reorg === undefined && tooOld(cursor)) return reset('cursor_too_old', `The id given is older than the events kept. ${keptSince}`)
    if (reorg === undefined || tooOld(reorg.ancestor))
      return reset(reorg === undefined ? 'unknown_block' : 'cursor_too_old', `The id's block is no longer on the chain, and the reorg that gave it up is not among those this indexer remembers. ${keptSince}`)
    const parameters = recordParameters(reorg.ancestor, reorg.ancestor.block, true)
    const corrections = reorg.subjects.map((subject) => toSubjectEntry(subject, { ...parameters, head: journal.lastHead as FeedPosition, removedSubject: subject }))
    return [reorgFrame(reorg.ancestor, cursor.block), ...framesFor(corrections, filter), ...framesFor(journal.after(reorg.ancestor), filter)]
  }

  return {
    get ready() {
      return live
    },
    get streams() {
      return subscribers.size
    },
    open({ cursor, subscriber }) {
      const replay = cursor === undefined ? [] : replayFrom(cursor, subscriber.filter)
      subscribers.add(subscriber)
      return { replay, close: () => void subscribers.delete(subscriber) }
    },
    stop() {
      unwatch()
      endAll()
    },
  }
}

/**
 * Whether a head the feed sent is on the store's branch: its hash is the store's for that block;
 * a block the store no longer holds a hash for is on it when it lies below every recent block
 * (deeper than any reorg the store can see) and off it otherwise (a rollback took it).
 */
function isOnStoreBranch(store: StoreReader, head: FeedPosition): boolean {
  const known = store.recentBlocks.get(head.block)
  if (known !== undefined) return known === head.witness
  const cursor = store.sync.cursor
  if (cursor === undefined || head.block > cursor.number) return false
  const oldest = store.recentBlocks.keys().next()
  return oldest.done === true || head.block < oldest.value
}

/** Whether a client's id names a block on the chain's branch: by a recent block's hash, or a head the feed sent and still stands on. */
function isWitnessed(store: StoreReader, journal: FeedJournal, cursor: FeedCursor, onChain: (head: FeedPosition) => boolean): boolean {
  for (const [number, hash] of store.recentBlocks) if (number >= cursor.block && hash.startsWith(cursor.witnessPrefix, 2)) return true
  const entries = journal.entries
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const { position } = entries[index] as FeedEntry
    if (position.block < cursor.block) break
    if (position.rank === headRank && position.witness.startsWith(cursor.witnessPrefix, 2)) return onChain(position)
  }
  return false
}

/** Takes the journal back to its newest head still on the chain; undefined when none is (the reorg went deeper than the journal). */
function rollBack(journal: FeedJournal, onChain: (head: FeedPosition) => boolean): FeedReorg | undefined {
  const entries = journal.entries
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const { position } = entries[index] as FeedEntry
    if (position.rank === headRank && onChain(position)) return journal.rollBack(position)
  }
  const floor = journal.floor
  return floor !== undefined && onChain(floor) ? journal.rollBack(floor) : undefined
}

/**
 * The reorgs between a client's id on a given-up branch and the chain: their ancestor on the
 * chain, and every record they gave up. Undefined when one of them is not remembered.
 */
function findGivenUp(journal: FeedJournal, cursor: FeedCursor, onChain: (head: FeedPosition) => boolean): FeedReorg | undefined {
  const subjects = new Map<string, RecordSubject>()
  let reorg = journal.findReorg(cursor.block, cursor.witnessPrefix)
  while (reorg !== undefined) {
    for (const subject of reorg.subjects) subjects.set(recordKey(subject), subject)
    if (onChain(reorg.ancestor)) return { ...reorg, subjects: [...subjects.values()] }
    reorg = journal.findReorg(reorg.ancestor.block, witnessPrefixOf(reorg.ancestor.witness))
  }
  return undefined
}

function toSubjectEntry(subject: RecordSubject, parameters: ToRecordEntryParameters): FeedEntry {
  return subject.kind === 'job' ? toJobEntry(BigInt(subject.jobId), parameters) : toServiceEntry(BigInt(subject.serviceId), parameters)
}

function take(subjects: Map<string, RecordSubject>, key: string): RecordSubject | undefined {
  const subject = subjects.get(key)
  subjects.delete(key)
  return subject
}

function framesFor(entries: readonly FeedEntry[], filter: FeedFilter): string[] {
  return entries.filter(({ subject }) => matchesFeedFilter(filter, subject)).map(({ frame }) => frame)
}

function headFrame(chainId: number, head: FeedPosition): string {
  return toSseFrame({ id: formatFeedCursor(chainId, head), event: 'head', data: { blockNumber: head.block.toString(), blockHash: head.witness } })
}

function reorgFrame(ancestor: FeedPosition, from: bigint): string {
  const depth = from > ancestor.block ? Number(from - ancestor.block) : 1
  return toSseFrame({ event: 'reorg', data: { ancestor: { blockNumber: ancestor.block.toString(), blockHash: ancestor.witness }, depth } })
}
