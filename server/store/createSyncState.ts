import type { Hash } from 'viem'
import type { StoreSync } from './StoreReader.ts'
import type { SyncWriter } from './StoreWriter.ts'

/** Where indexing stands (StoreReader's `sync`) and the recent blocks a reorg is detected by, with the writes that move them. */
export type SyncState = Omit<SyncWriter, 'recentBlocks'> & {
  readonly sync: StoreSync
  /** SyncWriter's `recentBlocks`, which a rollback and a restore rewrite. */
  readonly recentBlocks: Map<bigint, Hash>
  /** Forgets the cursor and the recent blocks; the first ids, a fact of the chain before the indexed range, stay known. */
  clear(): void
}

export type CreateSyncStateParameters = {
  pollIntervalMs: number
  chainId: number
  network: string
  /** How many applied blocks are remembered for reorg detection. */
  recentBlockLimit: number
  /** Bumps the store's version (StoreReader's `version`) and returns it. */
  changed: () => number
  now: () => number
}

export function createSyncState({ pollIntervalMs, chainId, network, recentBlockLimit, changed, now }: CreateSyncStateParameters): SyncState {
  const recentBlocks = new Map<bigint, Hash>()
  const sync: StoreSync = {
    cursor: undefined,
    headBlock: undefined,
    backfilledAt: undefined,
    lastPollAt: undefined,
    startedAt: now(),
    pollIntervalMs,
    chainId,
    network,
    newHeads: 'off',
    lastHeadAt: undefined,
    creations: { next: { service: undefined, job: undefined }, first: { service: undefined, job: undefined }, checkedAt: undefined },
    chainMismatch: undefined,
    stalledNodes: [],
    lastError: undefined,
    polls: 0,
    failedPolls: 0,
    selfCheck: { lastRunAt: undefined, checkedServices: 0, checkedJobs: 0, differences: 0, unrepaired: 0, repairs: 0 },
    replica: undefined,
  }
  return {
    sync,
    recentBlocks,

    advance(block, creations = sync.creations) {
      sync.cursor = block
      sync.creations = creations
      if (block.hash === undefined) return
      recentBlocks.set(block.number, block.hash)
      for (const number of recentBlocks.keys()) {
        if (recentBlocks.size <= recentBlockLimit) break
        recentBlocks.delete(number)
      }
    },

    headSeen(headBlock) {
      sync.headBlock = headBlock
    },

    polled({ headBlock, at }) {
      sync.headBlock = headBlock
      sync.lastPollAt = at
      sync.backfilledAt ??= at
      sync.lastError = undefined
      sync.polls += 1
    },

    nodesStalled(stalls) {
      sync.stalledNodes = stalls
    },

    pollFailed({ code, message }) {
      sync.lastError = { code, message }
      sync.failedPolls += 1
    },

    servingChain(mismatch) {
      // Answers built while the chain was right (kept bodies, ETags) must not outlive the change.
      if ((mismatch === undefined) !== (sync.chainMismatch === undefined)) changed()
      sync.chainMismatch = mismatch
    },

    selfChecked(status) {
      sync.selfCheck = { ...sync.selfCheck, ...status }
    },

    followingNewHeads(state) {
      sync.newHeads = state
    },

    headAnnounced(at) {
      sync.lastHeadAt = at
    },

    followedWriter(standing) {
      sync.replica = standing
    },

    clear() {
      recentBlocks.clear()
      sync.cursor = undefined
      const { first } = sync.creations
      sync.creations = { first, next: { ...first }, checkedAt: undefined }
    },
  }
}
