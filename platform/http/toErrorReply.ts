import { STATUS_CODES } from 'node:http'
import type { ErrorBody } from '../../contract/error.ts'
import type { BaseError } from '../../errors/BaseError.ts'
import { ChainIdMismatchError } from '../../errors/chain.ts'
import { FeedNotReadyError, TooManyStreamsError } from '../../errors/feed.ts'
import {
  ExpectationFailedError,
  HeadersTooLargeError,
  InvalidCursorError,
  InvalidParameterError,
  MalformedRequestError,
  MalformedUrlError,
  MethodNotAllowedError,
  MissingHostError,
  RateLimitedError,
  RequestTimeoutError,
  RouteNotFoundError,
  UnknownParameterError,
} from '../../errors/http.ts'
import { JobNotFoundError, ServiceNotFoundError, TeeEvidenceNotFoundError, TeeVerdictPendingError, TransactionNotFoundError } from '../../errors/notFound.ts'

export type ErrorReply = {
  status: number
  headers: Record<string, string>
  body: ErrorBody
}

/** The one policy the RateLimit headers name. */
const rateLimitPolicyName = 'per-client'

type ErrorClass = abstract new (...args: never[]) => BaseError

/** The one place an error class becomes an HTTP status. */
const statusByClass: ReadonlyArray<readonly [ErrorClass, number]> = [
  [InvalidParameterError, 400],
  [UnknownParameterError, 400],
  [InvalidCursorError, 400],
  [MalformedUrlError, 400],
  [MalformedRequestError, 400],
  [MissingHostError, 400],
  [RequestTimeoutError, 408],
  [ExpectationFailedError, 417],
  [RateLimitedError, 429],
  [TooManyStreamsError, 429],
  [HeadersTooLargeError, 431],
  [ServiceNotFoundError, 404],
  [JobNotFoundError, 404],
  [TransactionNotFoundError, 404],
  [TeeVerdictPendingError, 404],
  [TeeEvidenceNotFoundError, 404],
  [RouteNotFoundError, 404],
  [MethodNotAllowedError, 405],
  [ChainIdMismatchError, 503],
  [FeedNotReadyError, 503],
]

/**
 * Turns anything thrown while answering into a status, headers and an `ErrorBody`. Our own errors
 * keep their code and message; Fastify's client errors (bad URL encoding, body too large, ...) keep
 * their 4xx status; everything else is a 500 whose body reveals nothing of the cause (it is logged).
 */
export function toErrorReply(error: unknown): ErrorReply {
  for (const [errorClass, status] of statusByClass) {
    if (error instanceof errorClass) {
      const headers: Record<string, string> =
        error instanceof MethodNotAllowedError
          ? { allow: error.allowed.join(', ') }
          : error instanceof RateLimitedError
            ? toRateLimitHeaders(error)
            : error instanceof TooManyStreamsError || error instanceof FeedNotReadyError
              ? { 'retry-after': String(error.retryAfterSeconds) }
              : {}
      return { status, headers, body: { error: { code: error.code, message: error.message } } }
    }
  }
  const status = clientErrorStatus(error)
  if (status !== undefined && error instanceof Error) {
    return { status, headers: {}, body: { error: { code: statusCode(status), message: error.message } } }
  }
  return {
    status: 500,
    headers: {},
    body: { error: { code: 'internal_error', message: 'The server could not answer this request. Try again shortly.' } },
  }
}

/**
 * `Retry-After`, and the IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): the
 * policy (`q` requests per `w` seconds) and what is left of it (`r` requests, reset in `t` seconds).
 */
function toRateLimitHeaders({ limit, windowSeconds, retryAfterSeconds }: RateLimitedError): Record<string, string> {
  return {
    'retry-after': String(retryAfterSeconds),
    'ratelimit-policy': `"${rateLimitPolicyName}";q=${limit};w=${windowSeconds}`,
    ratelimit: `"${rateLimitPolicyName}";r=0;t=${retryAfterSeconds}`,
  }
}

/** Fastify marks the errors it raises for a bad request with a 4xx `statusCode`. */
function clientErrorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return undefined
  const { statusCode } = error
  return typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500 ? statusCode : undefined
}

/** `413` → `payload_too_large`. */
function statusCode(status: number): string {
  return (STATUS_CODES[status] ?? 'bad_request').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '')
}
