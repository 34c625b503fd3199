import { BaseError } from './BaseError.ts'

/**
 * A job exists but carries no attestation to check (it was never attested, or it expired or is
 * still waiting for the seller).
 */
export class AttestationMissingError extends BaseError {
  override name = 'AttestationMissingError'
  constructor({ jobId, stateName }: { jobId: string; stateName: string }) {
    super(`Job "${jobId}" has no attestation yet: it is ${stateName}.`, {
      code: 'attestation_missing',
    })
  }
}

/** The indexer a source reads through did not answer, or answered outside the contract. */
export class IndexerResponseError extends BaseError {
  override name = 'IndexerResponseError'
  constructor({ url, status, cause }: { url: string; status?: number; cause?: unknown }) {
    super(
      status === undefined
        ? `The indexer at "${url}" did not give a valid answer; try again shortly.`
        : `The indexer at "${url}" answered HTTP ${status}; try again shortly.`,
      { code: 'indexer_unavailable', cause },
    )
  }
}

/**
 * The indexer refused a read as over its per-client limit. Behind a hosted MCP server that it
 * trusts, the client is the MCP server's caller: this caller's requests, not everyone's.
 */
export class IndexerRateLimitedError extends BaseError {
  override name = 'IndexerRateLimitedError'
  constructor({ url, retryAfter }: { url: string; retryAfter: string | null }) {
    const seconds = retryAfter !== null && /^\d{1,6}$/.test(retryAfter) ? Number(retryAfter) : undefined
    super(
      `The indexer at "${url}" refused the read as over its per-client request limit. ` +
        (seconds === undefined ? 'Slow down and try again shortly.' : `Try again in ${seconds} s.`),
      { code: 'rate_limited' },
    )
  }
}

/** A tool failed for a reason we did not raise on purpose (node down, RPC error, bug). */
export class ToolFailedError extends BaseError {
  override name = 'ToolFailedError'
  constructor({ tool, cause }: { tool: string; cause: unknown }) {
    super(`Tool "${tool}" could not complete: the chain or indexer did not answer as expected. Try again shortly.`, {
      code: 'tool_failed',
      cause,
    })
  }
}

/**
 * The hosted MCP server was started with nothing to read but the node: every tool call would
 * spend the node's rate limit, so reading the chain per call has to be asked for by name.
 */
export class McpSourceMissingError extends BaseError {
  override name = 'McpSourceMissingError'
  constructor() {
    super(
      'The hosted MCP server has no index to read. Run it inside the indexer (npm run serve -- --mcp-port <port>), ' +
        'point it at a REST indexer (--indexer-url <url>), or, to read the node on every tool call (each call spends the ' +
        "node's rate limit), say so with --mcp-source chain.",
      { code: 'invalid_config' },
    )
  }
}
