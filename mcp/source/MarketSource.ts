import type { Address } from 'viem'
import type { Job } from '../../contract/job.ts'
import type { Service } from '../../contract/service.ts'
import type { TeeVerdict } from '../../contract/tee.ts'

/**
 * Where the tools get the market from: an index (the indexer's store in this process,
 * `createStoreSource`, or a REST indexer, `createIndexerSource`) or the chain itself
 * (`createChainSource`, the authority, at a cost in node calls per answer). All answer in contract
 * shapes and throw `ServiceNotFoundError` / `JobNotFoundError` for unknown ids.
 */
export type MarketSource = {
  /** Every registered service, active or not, ascending by id. */
  listServices: () => Promise<Service[]>
  getService: (parameters: { serviceId: bigint }) => Promise<Service>
  getJob: (parameters: { jobId: bigint }) => Promise<Job>
  /**
   * The signing key the job's attestation was accepted against (its JobAttested event's
   * `recoveredSigner`, which an index knows as the service's key in force at that event);
   * undefined when the job was never attested or the event is not found.
   */
  attestedSigner: (parameters: { job: Pick<Job, 'jobId' | 'serviceId' | 'createdAt' | 'timeout'> }) => Promise<Address | undefined>
  /**
   * The service's TEE verdict: the index's, or (reading the chain) one checked here. Throws
   * `ServiceNotFoundError`, or `TeeVerdictPendingError` while an index has not checked it yet.
   */
  getTeeVerdict: (parameters: { serviceId: bigint }) => Promise<TeeVerdict>
  /** The verdicts of every service checked so far, ascending by serviceId. */
  listTeeVerdicts: () => Promise<readonly TeeVerdict[]>
}
