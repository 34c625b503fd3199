import type { Registry } from 'prom-client'
import type { StoreReader } from '../store/StoreReader.ts'
import { addCollectedGauge } from './addCollectedGauge.ts'

/** Whether the new-heads subscription is up, and when it last announced a head (a live socket can stop delivering). */
export function addNewHeadsMetrics(registry: Registry, { store }: { store: () => StoreReader | undefined }): void {
  addCollectedGauge(registry, {
    name: 'indexer_new_heads_subscribed',
    help: '1 while the new-heads subscription is up; 0 while it is made again, or with no WebSocket URL configured.',
    read: () => {
      const newHeads = store()?.sync.newHeads
      return newHeads === undefined ? undefined : newHeads === 'subscribed' ? 1 : 0
    },
  })
  addCollectedGauge(registry, {
    name: 'indexer_new_heads_last_head_timestamp_seconds',
    help: 'Unix time of the last head the new-heads subscription announced (0 before the first).',
    read: () => {
      const lastHeadAt = store()?.sync.lastHeadAt
      return lastHeadAt === undefined ? undefined : lastHeadAt / 1000
    },
  })
}
