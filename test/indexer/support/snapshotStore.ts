import type { JobDispute } from '../../../contract/disputeEvent.ts'
import type { JobDetail } from '../../../contract/job.ts'
import type { Service } from '../../../contract/service.ts'
import type { Stats } from '../../../contract/stats.ts'
import { getJob, getJobDispute, getStats, listServices } from '../../../server/readers/index.ts'
import type { Store } from '../../../server/store/createStore.ts'

export type MarketSnapshot = {
  services: Service[]
  /** Ascending by jobId, each with its history. */
  jobs: JobDetail[]
  /** The disputed jobs' dispute events with their arguments, ascending by jobId. */
  disputes: JobDispute[]
  stats: Stats
}

/** What the store serves, through the readers, in the same shape as `readChainMarket`. */
export function snapshotStore(store: Store): MarketSnapshot {
  return structuredClone({
    services: [...listServices(store).services],
    jobs: store.jobIds.map((jobId) => getJob(store, { jobId })),
    disputes: store.jobIds.map((jobId) => getJobDispute(store, { jobId })).filter(({ count }) => count > 0),
    stats: getStats(store),
  })
}
