import type { Job, JobDetail } from '../../contract/job.ts'
import { getJob, getService, listServices } from '../../server/readers/index.ts'
import type { Store } from '../../server/store/createStore.ts'
import type { MarketSource } from './MarketSource.ts'

export type CreateStoreSourceReturnType = MarketSource

/**
 * Reads the indexer's store in this process, through the same readers as the REST handlers: for
 * a hosted MCP server running beside the indexer (no HTTP round trip, no second validation of
 * what the REST API already serves). Answers are the store's records themselves.
 */
export function createStoreSource(store: Store): CreateStoreSourceReturnType {
  // get_job answers the Job without its history; one copy per stored detail, so a job read again
  // is the same object (and its output check is remembered).
  const jobs = new WeakMap<JobDetail, Job>()
  return {
    async listServices() {
      return listServices(store).services
    },
    async getService({ serviceId }) {
      return getService(store, { serviceId })
    },
    async getJob({ jobId }) {
      const detail = getJob(store, { jobId })
      let job = jobs.get(detail)
      if (job === undefined) {
        const { events: _events, ...withoutEvents } = detail
        job = withoutEvents
        jobs.set(detail, job)
      }
      return job
    },
  }
}
