import { BaseError } from './BaseError.ts'

/** Values are quoted back to the caller; a huge one is cut so the error body stays small. */
const maxQuotedLength = 100

function quote(text: string): string {
  return JSON.stringify(text.length > maxQuotedLength ? `${text.slice(0, maxQuotedLength)}…` : text)
}

export type ParameterLocation = 'path' | 'query' | 'header' | 'body'

/** A path, query, header or body parameter that the contract's schema rejects. */
export class InvalidParameterError extends BaseError {
  override name = 'InvalidParameterError'
  constructor({
    location,
    parameter,
    value,
    expected,
  }: {
    location: ParameterLocation
    parameter: string
    /** A repeated query parameter arrives as an array. */
    value: string | readonly string[]
    /** What the parameter accepts, as a sentence (the schema's own message). */
    expected: string
  }) {
    const got = typeof value === 'string' ? `got ${quote(value)}` : `it was given ${value.length} times`
    super(`The ${location} parameter "${parameter}" is invalid: ${got}. ${expected}`, { code: 'invalid_parameter' })
  }
}

/** A query parameter the route does not take (misspelled, or meant for another path). */
export class UnknownParameterError extends BaseError {
  override name = 'UnknownParameterError'
  constructor({ parameters, allowed }: { parameters: readonly string[]; allowed: string }) {
    const names = parameters.map(quote).join(', ')
    super(`The query ${parameters.length === 1 ? 'parameter' : 'parameters'} ${names} ${parameters.length === 1 ? 'is' : 'are'} not taken here. ${allowed}`, {
      code: 'unknown_parameter',
    })
  }
}

/** A `cursor` that is not a `nextCursor` this path gave for these filters: forged, cut, or from another list. */
export class InvalidCursorError extends BaseError {
  override name = 'InvalidCursorError'
  constructor({ cursor }: { cursor: string }) {
    super(
      `The query parameter "cursor" is invalid: got ${quote(cursor)}. Expected the nextCursor of an earlier answer of this same path and filters, as it was given; to start over, leave cursor out.`,
      { code: 'invalid_cursor' },
    )
  }
}

/** A URL Fastify cannot route because a `%` does not start a valid percent-encoded UTF-8 sequence. */
export class MalformedUrlError extends BaseError {
  override name = 'MalformedUrlError'
  constructor({ url, cause }: { url: string; cause?: unknown }) {
    super(
      `The URL ${quote(url)} is not valid: every "%" must start a percent-encoded UTF-8 byte ("%" and two hex digits), e.g. "%20" for a space.`,
      { code: 'malformed_url', cause },
    )
  }
}

/** No route serves this path, whatever the method. */
export class RouteNotFoundError extends BaseError {
  override name = 'RouteNotFoundError'
  constructor({ path, knownPaths }: { path: string; knownPaths: readonly string[] }) {
    super(`No resource at ${quote(path)}. Available paths: ${knownPaths.join(', ')}.`, { code: 'not_found' })
  }
}

/** The path exists but is read-only. */
export class MethodNotAllowedError extends BaseError {
  override name = 'MethodNotAllowedError'
  readonly allowed: readonly string[]
  constructor({ method, path, allowed }: { method: string; path: string; allowed: readonly string[] }) {
    super(`Method ${quote(method)} is not allowed on ${quote(path)}. Allowed methods: ${allowed.join(', ')}.`, {
      code: 'method_not_allowed',
    })
    this.allowed = allowed
  }
}

/** `redocly build-docs` could not render the API reference page. */
export class DocsBuildError extends BaseError {
  override name = 'DocsBuildError'
  constructor({ openApiPath, cause }: { openApiPath: string; cause: unknown }) {
    super(`The API reference page could not be built from "${openApiPath}".`, { code: 'docs_build_failed', cause })
  }
}

/** The explorer's bundled assets are not where the server serves them from: they were not built. */
export class ExplorerAssetsMissingError extends BaseError {
  override name = 'ExplorerAssetsMissingError'
  constructor({ path, cause }: { path: string; cause: unknown }) {
    super(`The explorer's assets could not be read from "${path}". Run \`npm run build:explorer\` to build them.`, {
      code: 'explorer_assets_missing',
      cause,
    })
  }
}

/** The served OpenAPI document lacks an operation of the contract: it was not regenerated. */
export class OpenApiOperationMissingError extends BaseError {
  override name = 'OpenApiOperationMissingError'
  constructor({ method, path }: { method: string; path: string }) {
    super(`The OpenAPI document has no operation "${method} ${path}". Run \`npm run openapi\`.`, {
      code: 'openapi_out_of_date',
    })
  }
}

/** An HTTP/1.1 request without the `Host` header it must carry. */
export class MissingHostError extends BaseError {
  override name = 'MissingHostError'
  constructor() {
    super('The request has no Host header: every HTTP/1.1 request must name the host it is for.', { code: 'missing_host' })
  }
}

/** Node's parser refused the request before any route saw it (a malformed request line or header). */
export class MalformedRequestError extends BaseError {
  override name = 'MalformedRequestError'
  constructor({ cause }: { cause?: unknown } = {}) {
    super('The request is not valid HTTP/1.1: check its request line and headers.', { code: 'malformed_request', cause })
  }
}

/** The request's headers exceed what the server reads. */
export class HeadersTooLargeError extends BaseError {
  override name = 'HeadersTooLargeError'
  constructor({ maxBytes, cause }: { maxBytes: number; cause?: unknown }) {
    super(`The request's headers are larger than the ${maxBytes} bytes this server reads.`, { code: 'headers_too_large', cause })
  }
}

/** The request did not arrive in time (headers or body too slow): the connection is closed. */
export class RequestTimeoutError extends BaseError {
  override name = 'RequestTimeoutError'
  constructor({ cause }: { cause?: unknown } = {}) {
    super('The request did not arrive in time; the connection is closed. Send it again, whole.', { code: 'request_timeout', cause })
  }
}

/** An `Expect` header other than `100-continue`, the only expectation HTTP defines. */
export class ExpectationFailedError extends BaseError {
  override name = 'ExpectationFailedError'
  constructor({ expect }: { expect: string }) {
    super(`The expectation ${quote(expect)} cannot be met: the only one this server knows is "100-continue".`, {
      code: 'expectation_failed',
    })
  }
}

/** A client address that sent more requests than the per-client limit allows in the current window. */
export class RateLimitedError extends BaseError {
  override name = 'RateLimitedError'
  /** Requests allowed per window. */
  readonly limit: number
  readonly windowSeconds: number
  /** Seconds until the window ends and requests are served again. */
  readonly retryAfterSeconds: number
  constructor({ limit, windowSeconds, retryAfterSeconds }: { limit: number; windowSeconds: number; retryAfterSeconds: number }) {
    super(
      `Too many requests from this address: at most ${limit} are served every ${windowSeconds} s. Retry after ${retryAfterSeconds} s.`,
      { code: 'rate_limited' },
    )
    this.limit = limit
    this.windowSeconds = windowSeconds
    this.retryAfterSeconds = retryAfterSeconds
  }
}
