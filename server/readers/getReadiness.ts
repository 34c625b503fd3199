import type { StoreReader } from '../store/StoreReader.ts'
import { getHealth } from './getHealth.ts'
import { readSyncProgress, stalePollIntervals } from './readSyncProgress.ts'

export type Readiness = (
  | { ready: true; lagBlocks: number }
  | {
      ready: false
      /** `backfilling`: the initial back-fill has not reached the head; `stale`: no successful poll (or, on a replica, no look at the writer's commits) lately; `unhealthy`: /healthz says why. */
      reason: 'backfilling' | 'stale' | 'unhealthy'
      message: string
      lagBlocks: number
    }
) & {
  /** On a read-only replica: the writer's last commit served here, and how long after the writer made it that it was. */
  replica?: { revision: string; behindWriterMs: number }
}

/** A replica that has not looked at the database for this long may be missing commits. */
const replicaStaleMs = 10_000

export type GetReadinessParameters = {
  /** Epoch milliseconds; defaults to the current time. */
  now?: number | undefined
}

/**
 * Whether a load balancer should send traffic here: back-filled to the head, and the last poll
 * recent (the same rule as /healthz's `ok`, which also stays false while the health record reports
 * a problem), with the reason when not. /healthz keeps its record for people and monitors.
 */
export function getReadiness(store: StoreReader, { now = Date.now() }: GetReadinessParameters = {}): Readiness {
  const { replica } = store.sync
  const readiness = getIndexerReadiness(store, { now })
  if (replica === undefined) return readiness
  const standing = { revision: replica.revision.toString(), behindWriterMs: replica.behindWriterMs }
  const lookAgeMs = now - replica.checkedAt
  if (readiness.ready && lookAgeMs > replicaStaleMs)
    return {
      ready: false,
      reason: 'stale',
      message: `This replica last read the writer's commits ${(lookAgeMs / 1000).toFixed(1)} s ago, more than ${replicaStaleMs / 1000} s: the database may be unreachable.`,
      lagBlocks: readiness.lagBlocks,
      replica: standing,
    }
  return { ...readiness, replica: standing }
}

function getIndexerReadiness(store: StoreReader, { now }: { now: number }): Readiness {
  const { ok, health } = getHealth(store, { now })
  const { lagBlocks } = health
  if (ok) return { ready: true, lagBlocks }
  const progress = readSyncProgress(store, { now })
  if (progress.backfilledAt === undefined) {
    const cursor = progress.cursorBlock === undefined ? 'no block yet' : `block ${progress.cursorBlock}`
    return { ready: false, reason: 'backfilling', message: `The initial back-fill has not reached the head: indexed up to ${cursor}.`, lagBlocks }
  }
  const { lastPollAgeMs } = progress
  if (lastPollAgeMs !== undefined && !progress.polledLately) {
    const staleMs = stalePollIntervals * store.sync.pollIntervalMs
    return {
      ready: false,
      reason: 'stale',
      message: `The last successful poll was ${(lastPollAgeMs / 1000).toFixed(1)} s ago, more than ${stalePollIntervals} poll intervals (${staleMs / 1000} s): the node may be unreachable.`,
      lagBlocks,
    }
  }
  // The health record may list what is wrong (e.g. the node serves another chain); say it here too.
  const detail = health.problems.length === 0 ? 'see GET /healthz.' : health.problems.map((problem) => problem.message).join(' ')
  return { ready: false, reason: 'unhealthy', message: `The indexer reports a problem: ${detail}`, lagBlocks }
}
