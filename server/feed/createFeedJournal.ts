import { compareFeedPositions, correctionRank, headRank, type FeedPosition } from './FeedPosition.ts'
import type { FeedEntry, RecordSubject } from './FeedEntry.ts'

export type FeedJournalLimits = {
  /** Events kept for resumption at most; the oldest go first. */
  maxEntries: number
  /** Their text, in UTF-16 code units, at most. */
  maxChars: number
}

/** A reorg as the journal saw it: what resuming from a block it gave up needs. */
export type FeedReorg = {
  ancestor: FeedPosition
  /** The heads given up, oldest first. */
  orphaned: readonly FeedPosition[]
  /** The records whose events were given up, each once: a client that saw them gets their state again. */
  subjects: readonly RecordSubject[]
}

export type FeedJournal = {
  /** Kept events, oldest first, all on the chain's branch: what a resumed stream is replayed from. */
  readonly entries: readonly FeedEntry[]
  /** The newest position no longer kept (the start, or the last event trimmed): a cursor below it is too old. */
  readonly floor: FeedPosition | undefined
  readonly lastHead: FeedPosition | undefined
  /** Starts over at `head`: nothing kept, nothing before it replayable. */
  reset(head: FeedPosition): void
  append(entries: readonly FeedEntry[]): void
  /** Gives up every event after the head `ancestor` (kept): the reorg is remembered for resumption. */
  rollBack(ancestor: FeedPosition): FeedReorg
  /** The kept events after `position` (a correction at the same place too: those share one id). */
  after(position: Omit<FeedPosition, 'witness'>): FeedEntry[]
  /** The reorg that gave up a head at or above `block` whose hash starts with `witnessPrefix`. */
  findReorg(block: bigint, witnessPrefix: string): FeedReorg | undefined
}

/** Reorgs remembered for clients that were away during one. */
const reorgLimit = 16

/**
 * The events kept for resumption, in the order sent, on the chain's current branch: a rollback
 * takes what it gave up out (and remembers it as a FeedReorg), so the kept events' positions
 * only grow.
 */
export function createFeedJournal({ maxEntries, maxChars }: FeedJournalLimits): FeedJournal {
  let entries: FeedEntry[] = []
  let start = 0
  let chars = 0
  let floor: FeedPosition | undefined
  let lastHead: FeedPosition | undefined
  const reorgs: FeedReorg[] = []

  const held = (): FeedEntry[] => {
    // Trimmed entries are skipped by an offset and dropped in bulk, not shifted one by one.
    if (start > 1_024 && start * 2 > entries.length) {
      entries = entries.slice(start)
      start = 0
    }
    return start === 0 ? entries : entries.slice(start)
  }
  const trim = (): void => {
    while (entries.length - start > maxEntries || (chars > maxChars && entries.length - start > 1)) {
      const oldest = entries[start] as FeedEntry
      chars -= oldest.frame.length
      floor = oldest.position
      start += 1
    }
  }

  return {
    get entries() {
      return held()
    },
    get floor() {
      return floor
    },
    get lastHead() {
      return lastHead
    },
    reset(head) {
      entries = []
      start = 0
      chars = 0
      floor = head
      lastHead = head
    },
    append(added) {
      for (const entry of added) {
        entries.push(entry)
        chars += entry.frame.length
        if (entry.position.rank === headRank) lastHead = entry.position
      }
      trim()
    },
    rollBack(ancestor) {
      const kept = held()
      let cut = kept.length
      while (cut > 0 && compareFeedPositions((kept[cut - 1] as FeedEntry).position, ancestor) > 0) cut -= 1
      const given = kept.slice(cut)
      entries = kept.slice(0, cut)
      start = 0
      chars = entries.reduce((sum, entry) => sum + entry.frame.length, 0)
      const reorg: FeedReorg = {
        ancestor,
        orphaned: given.filter(({ position }) => position.rank === headRank).map(({ position }) => position),
        subjects: distinctRecords(given),
      }
      reorgs.push(reorg)
      if (reorgs.length > reorgLimit) reorgs.shift()
      lastHead = ancestor
      return reorg
    },
    after(position) {
      const kept = held()
      // Corrections share their id, so one given back may stand for others not yet received.
      const inclusive = position.rank === correctionRank
      let low = 0
      let high = kept.length
      while (low < high) {
        const middle = (low + high) >>> 1
        const order = compareFeedPositions((kept[middle] as FeedEntry).position, position)
        if (order > 0 || (inclusive && order === 0)) high = middle
        else low = middle + 1
      }
      return kept.slice(low)
    },
    findReorg(block, witnessPrefix) {
      for (let index = reorgs.length - 1; index >= 0; index -= 1) {
        const reorg = reorgs[index] as FeedReorg
        if (reorg.orphaned.some((head) => head.block >= block && head.witness.startsWith(witnessPrefix, 2))) return reorg
      }
      return undefined
    },
  }
}

function distinctRecords(entries: readonly FeedEntry[]): RecordSubject[] {
  const byRecord = new Map<string, RecordSubject>()
  for (const { subject } of entries) if (subject.kind !== 'head') byRecord.set(recordKey(subject), subject)
  return [...byRecord.values()]
}

/** One key per record: a job and a service of the same id are two. */
export function recordKey(subject: RecordSubject): string {
  return subject.kind === 'job' ? `job ${subject.jobId}` : `service ${subject.serviceId}`
}
