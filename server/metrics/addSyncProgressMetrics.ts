import type { Registry } from 'prom-client'
import { readSyncProgress, type SyncProgress } from '../readers/readSyncProgress.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { addCollectedGauge } from './addCollectedGauge.ts'

export type AddSyncProgressMetricsParameters = {
  /** The store of the indexer observed; undefined until it is made. */
  store: () => StoreReader | undefined
  /** Where the back-fill started, once known. */
  firstBlock: () => bigint | undefined
  /** The latest head the node announced, as the RPC observer saw it. */
  latestHead: () => bigint | undefined
  now: () => number
}

/** Where indexing stands against the chain (head, cursor, lag, the back-fill's share and rate), as /healthz and the progress lines tell it. */
export function addSyncProgressMetrics(registry: Registry, { store, firstBlock, latestHead, now }: AddSyncProgressMetricsParameters): void {
  const progress = (): SyncProgress | undefined => {
    const observed = store()
    return observed === undefined ? undefined : readSyncProgress(observed, { now: now(), firstBlock: firstBlock(), latestHead: latestHead() })
  }
  /** A figure of the back-fill while it goes on; `done` once it reached the head. */
  const backfillFigure = (figure: (progress: SyncProgress) => number | undefined, done: number) => (): number | undefined => {
    const read = progress()
    return read === undefined ? undefined : read.backfilledAt !== undefined ? done : figure(read)
  }

  addCollectedGauge(registry, { name: 'indexer_head_block', help: 'Chain head as the node last reported it.', read: () => toNumber(progress()?.headBlock) })
  addCollectedGauge(registry, { name: 'indexer_cursor_block', help: 'Last block whose logs are all applied to the store.', read: () => toNumber(progress()?.cursorBlock) })
  addCollectedGauge(registry, { name: 'indexer_lag_blocks', help: 'Head block minus cursor block.', read: () => progress()?.lagBlocks })
  addCollectedGauge(registry, {
    name: 'indexer_lag_seconds',
    help: 'Seconds since the store last held everything up to the head (the last successful poll; since the start before the back-fill is done).',
    read: () => progress()?.lagSeconds,
  })
  addCollectedGauge(registry, {
    name: 'indexer_backfill_ratio',
    help: 'Share of the initial back-fill done, from 0 to 1 (1 once it reached the head).',
    read: backfillFigure((read) => read.backfill?.ratio ?? 0, 1),
  })
  addCollectedGauge(registry, {
    name: 'indexer_backfill_blocks_per_second',
    help: 'Blocks the initial back-fill indexed per second so far (0 once it is done).',
    read: backfillFigure((read) => read.backfill?.blocksPerSecond ?? 0, 0),
  })
  addCollectedGauge(registry, {
    name: 'indexer_backfill_eta_seconds',
    help: 'Seconds the initial back-fill needs yet at its rate so far (0 once it is done).',
    read: backfillFigure((read) => read.backfill?.etaSeconds ?? 0, 0),
  })
  addCollectedGauge(registry, {
    name: 'indexer_backfilled',
    help: '1 once the initial back-fill reached the head, else 0.',
    read: backfillFigure(() => 0, 1),
  })
  addCollectedGauge(registry, {
    name: 'indexer_last_poll_timestamp_seconds',
    help: 'Unix time of the last successful poll.',
    read: () => {
      const lastPollAt = store()?.sync.lastPollAt
      return lastPollAt === undefined ? undefined : lastPollAt / 1000
    },
  })
}

function toNumber(value: bigint | undefined): number | undefined {
  return value === undefined ? undefined : Number(value)
}
