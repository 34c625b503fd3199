import type { JobDetail } from '../../../contract/job.ts'
import type { Service } from '../../../contract/service.ts'
import type { Stats } from '../../../contract/stats.ts'
import { getJob, getStats, listServices } from '../../../server/readers/index.ts'
import type { Store } from '../../../server/store/createStore.ts'

export type MarketSnapshot = {
  services: Service[]
  /** Ascending by jobId, each with its history. */
  jobs: JobDetail[]
  stats: Stats
}

/** What the store serves, through the readers, in the same shape as `readChainMarket`. */
export function snapshotStore(store: Store): MarketSnapshot {
  return structuredClone({
    services: [...listServices(store).services],
    jobs: store.jobIds.map((jobId) => getJob(store, { jobId })),
    stats: getStats(store),
  })
}
