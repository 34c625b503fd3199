import type { Job } from '../../contract/job.ts'
import type { Service } from '../../contract/service.ts'

/**
 * Where the read tools get the market from: the chain itself (`createChainSource`, the default
 * and the authority) or a REST indexer (`createIndexerSource`). Both answer in contract shapes
 * and throw `ServiceNotFoundError` / `JobNotFoundError` for unknown ids.
 */
export type MarketSource = {
  /** Every registered service, active or not, ascending by id. */
  listServices: () => Promise<Service[]>
  getService: (parameters: { serviceId: bigint }) => Promise<Service>
  getJob: (parameters: { jobId: bigint }) => Promise<Job>
}
