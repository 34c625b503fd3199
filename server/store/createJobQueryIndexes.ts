import type { Job } from '../../contract/job.ts'
import { createJobIndex } from './createJobIndex.ts'
import type { JobEntry } from './jobHistory.ts'
import type { StoredJob, StoreReader } from './StoreReader.ts'

/** The job queries' indexes (by seller, buyer, service and state), and how a job moves between their groups. */
export type JobQueryIndexes = Pick<StoreReader, 'sellerJobs' | 'buyerJobs' | 'serviceJobs' | 'stateJobs'> & {
  /** Puts the entry in the groups of its record. */
  add(entry: JobEntry): void
  /** Takes the entry out of the groups of its record. */
  remove(entry: JobEntry): void
  /** Moves the entry between groups for what changed: on chain only the state does, but a repair may replace any field. */
  move(entry: JobEntry, before: Job, after: Job): void
  clear(): void
}

const noJobs: readonly StoredJob[] = []

export function createJobQueryIndexes(): JobQueryIndexes {
  // Keyed as the job record spells them, lowercased for addresses: a query's address in any case finds its group.
  const jobsBySeller = createJobIndex<string, JobEntry>()
  const jobsByBuyer = createJobIndex<string, JobEntry>()
  const jobsByService = createJobIndex<string, JobEntry>()
  const jobsByState = createJobIndex<number, JobEntry>()
  return {
    sellerJobs: (seller) => jobsBySeller.get(seller.toLowerCase()) ?? noJobs,
    buyerJobs: (buyer) => jobsByBuyer.get(buyer.toLowerCase()) ?? noJobs,
    serviceJobs: (serviceId) => jobsByService.get(serviceId.toString()) ?? noJobs,
    stateJobs: (state) => jobsByState.get(state) ?? noJobs,
    add(entry) {
      const { job } = entry
      jobsBySeller.add(job.seller.toLowerCase(), entry)
      jobsByBuyer.add(job.buyer.toLowerCase(), entry)
      jobsByService.add(job.serviceId, entry)
      jobsByState.add(job.state, entry)
    },
    remove(entry) {
      const { job } = entry
      jobsBySeller.remove(job.seller.toLowerCase(), entry)
      jobsByBuyer.remove(job.buyer.toLowerCase(), entry)
      jobsByService.remove(job.serviceId, entry)
      jobsByState.remove(job.state, entry)
    },
    move(entry, before, after) {
      if (before.state !== after.state) {
        jobsByState.remove(before.state, entry)
        jobsByState.add(after.state, entry)
      }
      if (before.seller !== after.seller || before.buyer !== after.buyer || before.serviceId !== after.serviceId) {
        jobsBySeller.remove(before.seller.toLowerCase(), entry)
        jobsByBuyer.remove(before.buyer.toLowerCase(), entry)
        jobsByService.remove(before.serviceId, entry)
        jobsBySeller.add(after.seller.toLowerCase(), entry)
        jobsByBuyer.add(after.buyer.toLowerCase(), entry)
        jobsByService.add(after.serviceId, entry)
      }
    },
    clear() {
      jobsBySeller.clear()
      jobsByBuyer.clear()
      jobsByService.clear()
      jobsByState.clear()
    },
  }
}
