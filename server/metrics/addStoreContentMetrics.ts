import { Gauge, type Registry } from 'prom-client'
import type { StoreReader } from '../store/StoreReader.ts'
import { addCollectedGauge } from './addCollectedGauge.ts'

/** What the store holds: its records, the counters derived from the applied events, and where the self-check comparing them with the chain stands. */
export function addStoreContentMetrics(registry: Registry, { store }: { store: () => StoreReader | undefined }): void {
  const registers = [registry]
  new Gauge({
    name: 'indexer_store_records',
    help: 'Records in the store, by kind.',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      const observed = store()
      if (observed === undefined) return
      this.set({ kind: 'service' }, observed.serviceList().length)
      this.set({ kind: 'job' }, observed.jobList.length)
    },
  })
  new Gauge({
    name: 'indexer_market_events',
    help: 'Counters derived from the applied events, as /healthz reports them (jobsSettled, ...).',
    labelNames: ['counter'] as const,
    registers,
    collect() {
      for (const [name, value] of Object.entries(store()?.counters ?? {})) {
        if (typeof value === 'number') this.set({ counter: name }, value)
      }
    },
  })
  addCollectedGauge(registry, {
    name: 'indexer_settled_wei',
    help: 'Total paid to sellers and the protocol by settled jobs, in wei (as a float).',
    read: () => {
      const counters = store()?.counters
      return counters === undefined ? undefined : Number(counters.totalSettledWei)
    },
  })
  new Gauge({
    name: 'indexer_self_check',
    help: 'The self-check comparing the store with the chain: repairs made since the start, records known to differ and not repaired yet, differences found.',
    labelNames: ['figure'] as const,
    registers,
    collect() {
      const selfCheck = store()?.sync.selfCheck
      if (selfCheck === undefined) return
      this.set({ figure: 'repairs' }, selfCheck.repairs)
      this.set({ figure: 'unrepaired' }, selfCheck.unrepaired)
      this.set({ figure: 'differences' }, selfCheck.differences)
    },
  })
}
