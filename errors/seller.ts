import { BaseError } from './BaseError.ts'

/** The answering backend (built-in or an OpenAI-compatible endpoint) gave no usable answer. */
export class SellerBackendError extends BaseError {
  override name = 'SellerBackendError'
  constructor(backend: string, reason: string, { cause }: { cause?: unknown } = {}) {
    super(`Backend "${backend}" gave no answer: ${reason}.`, { code: 'seller_backend_failed', cause })
  }
}

/** The prompt of a job cannot be read from its `createJob` transaction. */
export class JobInputUnreadableError extends BaseError {
  override name = 'JobInputUnreadableError'
  constructor(jobId: bigint, reason: string, { cause }: { cause?: unknown } = {}) {
    super(`The input of job "${jobId}" cannot be read: ${reason}.`, {
      code: 'job_input_unreadable',
      cause,
    })
  }
}

/** The seller holds no key for the service's current on-chain `signingAddress`. */
export class SigningKeyUnavailableError extends BaseError {
  override name = 'SigningKeyUnavailableError'
  constructor(serviceId: bigint, signingAddress: string) {
    super(
      `No signing key held for service "${serviceId}" matches its signingAddress "${signingAddress}".`,
      { code: 'signing_key_unavailable' },
    )
  }
}

/** The attestation transaction was mined but reverted. */
export class AttestationRevertedError extends BaseError {
  override name = 'AttestationRevertedError'
  constructor(jobId: bigint, transactionHash: string) {
    super(`The attestation of job "${jobId}" reverted in transaction "${transactionHash}".`, {
      code: 'attestation_reverted',
    })
  }
}

/** The seller's state file exists but is not one this seller wrote. */
export class SellerStateFileError extends BaseError {
  override name = 'SellerStateFileError'
  constructor(file: string, { cause }: { cause?: unknown } = {}) {
    super(`The seller state file "${file}" is malformed; move it away to start afresh.`, {
      code: 'seller_state_malformed',
      cause,
    })
  }
}

/** A signing key was offered for a service this seller does not serve. */
export class ServiceNotServedError extends BaseError {
  override name = 'ServiceNotServedError'
  constructor(serviceId: bigint) {
    super(`Service "${serviceId}" is not served by this seller.`, { code: 'service_not_served' })
  }
}

/**
 * The indexer the seller follows (`--indexer-url`) refused a request, gave no answer in time, or
 * answered what the contract does not allow. `retryAfterMs` is its `Retry-After`, when it sent one.
 */
export class IndexerFeedError extends BaseError {
  override name = 'IndexerFeedError'
  readonly retryAfterMs: number | undefined
  constructor({ url, problem, retryAfterMs, cause }: { url: string; problem: string; retryAfterMs?: number | undefined; cause?: unknown }) {
    super(`The indexer at "${url}" ${problem}.`, { code: 'indexer_unavailable', cause })
    this.retryAfterMs = retryAfterMs
  }
}
