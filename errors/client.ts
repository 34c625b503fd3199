import { BaseError } from './BaseError.ts'

/** `watchJob` could not read the job: the indexer did not answer, or answered outside the contract. */
export class JobWatchError extends BaseError {
  override name = 'JobWatchError'
  readonly status: number | undefined
  constructor({ jobId, status, body, cause }: { jobId: string; status?: number; body?: unknown; cause?: unknown }) {
    super(
      status === undefined
        ? `Watching job "${jobId}" failed: the indexer did not answer.`
        : `Watching job "${jobId}" failed: the indexer answered HTTP ${status} where 200, 304 or 404 was expected.`,
      { code: 'job_watch_failed', details: body === undefined ? undefined : JSON.stringify(body), cause },
    )
    this.status = status
  }
}

/** An attestation was checked against a service that is not the job's. */
export class JobServiceMismatchError extends BaseError {
  override name = 'JobServiceMismatchError'
  constructor({ jobId, jobServiceId, serviceId }: { jobId: string; jobServiceId: string; serviceId: string }) {
    super(`Job "${jobId}" belongs to service "${jobServiceId}", not to service "${serviceId}": pass the job's own service.`, {
      code: 'job_service_mismatch',
    })
  }
}
