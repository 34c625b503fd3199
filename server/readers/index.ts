/**
 * Readers: the one read API over the indexer's store, shared by the REST handlers and the MCP
 * tools. Each is synchronous, O(result size), and returns contract-shaped objects (types inferred
 * from the zod schemas in contract/) that can be serialized as they are: the store's own records,
 * except getJob's JobDetail, a shallow object put together per call from the stored job and events.
 *
 *   listServices(store)                        → ServiceList  { count, services } ascending serviceId
 *   getService(store, { serviceId: bigint })   → Service      throws ServiceNotFoundError (service_not_found)
 *   getServiceEvents(store, { serviceId })     → ServiceEventList { count, events } oldest first; throws ServiceNotFoundError
 *   listTeeVerdicts(store)                     → TeeVerdictList { count, verdicts } ascending serviceId, the services checked so far
 *   getTeeVerdict(store, { serviceId })        → TeeVerdict   throws ServiceNotFoundError, TeeVerdictPendingError (tee_verdict_pending)
 *   getTeeEvidence(store, { serviceId })       → TeeEvidence  throws ServiceNotFoundError, TeeEvidenceNotFoundError (tee_evidence_not_found)
 *   listJobs(store, { limit?, cursor?, buyer?, seller?, serviceId?, states? })
 *                                              → JobList      { count, jobs, nextCursor } newest first, default 50, filters ANDed;
 *                                                             the caller validates limit (1..1000); a foreign cursor throws InvalidCursorError
 *   getJob(store, { jobId: bigint })           → JobDetail    job + events oldest first; throws JobNotFoundError (job_not_found)
 *   getJobDispute(store, { jobId: bigint })    → JobDispute   { jobId, count, events } the dispute events with their arguments,
 *                                                             oldest first, none when never disputed; throws JobNotFoundError
 *   getSeller(store, { address, limit?, cursor? })  → Seller  address EIP-55, matched case-insensitively, services and
 *                                                             a page of jobs (default 1,000) newest first; empty arrays when unknown
 *   getBuyer(store, { address, limit?, cursor? })   → Buyer   { buyer (EIP-55), jobs, nextCursor } a page (default 50) newest first
 *   getStats(store)                            → Stats
 *   getTransaction(store, { transactionHash }) → Transaction  { transactionHash, blockNumber, timestamp, count, events }
 *                                                             events in log order, each with jobId or serviceId;
 *                                                             hash any case; throws TransactionNotFoundError (transaction_not_found)
 *   getHealth(store, { now?: number })         → { ok, health: Health }  ok → HTTP 200, else 503
 *
 * The store is any `StoreReader`: server/startRestIndexer.ts makes one (createStore) and the indexer fills it.
 */
export { listServices, type ListServicesReturnType } from './listServices.ts'
export { getService, type GetServiceParameters, type GetServiceReturnType } from './getService.ts'
export { getServiceEvents, type GetServiceEventsParameters, type GetServiceEventsReturnType } from './getServiceEvents.ts'
export { listTeeVerdicts, type ListTeeVerdictsReturnType } from './listTeeVerdicts.ts'
export { getTeeVerdict, type GetTeeVerdictParameters, type GetTeeVerdictReturnType } from './getTeeVerdict.ts'
export { getTeeEvidence, type GetTeeEvidenceParameters, type GetTeeEvidenceReturnType } from './getTeeEvidence.ts'
export { listJobs, type ListJobsParameters, type ListJobsReturnType } from './listJobs.ts'
export { getJob, type GetJobParameters, type GetJobReturnType } from './getJob.ts'
export { getJobDispute, type GetJobDisputeParameters, type GetJobDisputeReturnType } from './getJobDispute.ts'
export { getSeller, type GetSellerParameters, type GetSellerReturnType } from './getSeller.ts'
export { getBuyer, type GetBuyerParameters, type GetBuyerReturnType } from './getBuyer.ts'
export { getStats, type GetStatsReturnType } from './getStats.ts'
export { getTransaction, type GetTransactionParameters, type GetTransactionReturnType } from './getTransaction.ts'
export { getHealth, type GetHealthParameters, type GetHealthReturnType } from './getHealth.ts'
