import { ErrorBodySchema } from '../contract/error.ts'
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

/**
 * The indexer refused `GET /v1/events` in a way that waiting does not mend: 404 (an indexer without
 * the live feed), 400 (a bad filter or event id) or another status than 200, 429, 502, 503 or 504.
 */
export class FeedRefusedError extends BaseError {
  override name = 'FeedRefusedError'
  readonly status: number
  constructor({ baseUrl, status, body }: { baseUrl: string; status: number; body?: unknown }) {
    const answer = ErrorBodySchema.safeParse(body).data?.error
    super(
      status === 404
        ? `The indexer at "${baseUrl}" has no live feed: GET /v1/events answered HTTP 404.`
        : status === 400
          ? `The indexer at "${baseUrl}" refused the feed's filters or event id: HTTP 400${answer === undefined ? '' : ` (${answer.code}: ${answer.message})`}.`
          : `Following the feed of "${baseUrl}" failed: GET /v1/events answered HTTP ${status} where 200, 429 or 503 was expected.`,
      { code: 'feed_refused', details: body === undefined ? undefined : JSON.stringify(body) },
    )
    this.status = status
  }
}

/** `GET /v1/events` answered, but not as the live feed does: not an event stream, or an event outside the contract. */
export class FeedProtocolError extends BaseError {
  override name = 'FeedProtocolError'
  constructor({ baseUrl, problem, cause }: { baseUrl: string; problem: string; cause?: unknown }) {
    super(`Following the feed of "${baseUrl}" failed: GET /v1/events answered ${problem}.`, { code: 'feed_protocol_error', cause })
  }
}


/** A Server-Sent Event grew past the length the reader holds (`readEventStream`'s `maxEventLength`). */
export class EventTooLongError extends BaseError {
  override name = 'EventTooLongError'
  constructor({ maxEventLength, cause }: { maxEventLength: number; cause?: unknown }) {
    super(`An event of the stream passed ${maxEventLength} characters without ending.`, { code: 'event_too_long', cause })
  }
}
