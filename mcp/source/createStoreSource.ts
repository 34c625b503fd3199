import { JobNotFoundError } from '../../errors/notFound.ts'
import { assertServing } from '../../server/readers/assertServing.ts'
import { signingKeyAtAttestation } from '../../contract/signingKeyAtAttestation.ts'
import { getJob, getService, getServiceEvents, getTeeVerdict, listServices, listTeeVerdicts } from '../../server/readers/index.ts'
import type { StoreReader } from '../../server/store/StoreReader.ts'
import type { MarketSource } from './MarketSource.ts'

export type CreateStoreSourceReturnType = MarketSource

/**
 * Reads the indexer's store in this process, through the same readers as the REST handlers: for
 * a hosted MCP server running beside the indexer (no HTTP round trip, no second validation of
 * what the REST API already serves). Answers are the store's records themselves, never modified
 * once handed out, so the output checks and serialized answers built for them stay valid.
 */
export function createStoreSource(store: StoreReader): CreateStoreSourceReturnType {
  return {
    async listServices() {
      return listServices(store).services
    },
    async getService({ serviceId }) {
      return getService(store, { serviceId })
    },
    async getJob({ jobId }) {
      // The stored record is exactly the document's Job, as the job list serves it; the getJob
      // reader adds the event history, which get_job leaves out.
      assertServing(store)
      const stored = store.job(jobId)
      if (stored === undefined) throw new JobNotFoundError({ jobId })
      return stored.job
    },
    async attestedSigner({ job }) {
      const { events } = getJob(store, { jobId: BigInt(job.jobId) })
      return signingKeyAtAttestation(events, getServiceEvents(store, { serviceId: BigInt(job.serviceId) }).events)
    },
    async getTeeVerdict({ serviceId }) {
      return getTeeVerdict(store, { serviceId })
    },
    async listTeeVerdicts() {
      return listTeeVerdicts(store).verdicts
    },
  }
}
