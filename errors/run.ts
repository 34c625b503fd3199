import { formatEther } from 'viem'
import { BaseError } from './BaseError.ts'
import { canQuoteSetting, quoteSetting } from './quoteSetting.ts'
import { describeLimit } from './describeLimit.ts'

/**
 * Refusals of `run` before anything is paid. None of these messages ever quotes the private key:
 * the key variable is named, its value never is.
 */
export class BuyerKeyMissingError extends BaseError {
  override name = 'BuyerKeyMissingError'
  constructor() {
    super(
      'MARKET_PRIVATE_KEY is not set: run pays from a buyer wallet, so set it to that wallet\'s private key (0x + 64 hex digits) in the MCP server\'s environment. Nothing was spent.',
      { code: 'buyer_key_missing' },
    )
  }
}

export class BuyerKeyMalformedError extends BaseError {
  override name = 'BuyerKeyMalformedError'
  constructor() {
    super(
      'MARKET_PRIVATE_KEY is malformed: it must be 64 hex digits, optionally prefixed with 0x, and a valid secp256k1 key (its value is not shown). Nothing was spent.',
      { code: 'buyer_key_malformed' },
    )
  }
}

/** A `run` setting read from the environment (other than the key) is not usable. */
export class RunSettingError extends BaseError {
  override name = 'RunSettingError'
  constructor({ variable, value, expects }: { variable: string; value: string; expects: string }) {
    super(
      canQuoteSetting(value)
        ? `${variable} ${quoteSetting(value)} must be ${expects}. Nothing was spent.`
        : `${variable} must be ${expects}, got ${quoteSetting(value)}. Nothing was spent.`,
      { code: 'invalid_run_setting' },
    )
  }
}

export class ServiceInactiveError extends BaseError {
  override name = 'ServiceInactiveError'
  constructor({ serviceId }: { serviceId: bigint }) {
    super(`Service "${serviceId}" is not active: it accepts no new jobs. Nothing was spent.`, {
      code: 'service_inactive',
    })
  }
}

export class PromptTooLargeError extends BaseError {
  override name = 'PromptTooLargeError'
  constructor({ serviceId, bytes, maxInputBytes }: { serviceId: bigint; bytes: number; maxInputBytes: bigint }) {
    super(
      `The prompt is ${bytes} bytes (UTF-8) but service "${serviceId}" accepts at most ${maxInputBytes}. Nothing was spent.`,
      { code: 'prompt_too_large' },
    )
  }
}

export class PriceAboveCapError extends BaseError {
  override name = 'PriceAboveCapError'
  constructor({ serviceId, price, cap, isDefault }: { serviceId: bigint; price: bigint; cap: bigint; isDefault: boolean }) {
    super(
      `Service "${serviceId}" costs ${price} wei (${formatEther(price)} native token) per call, above the per-call cap: ${describeLimit('MARKET_MAX_PRICE_WEI', cap, isDefault)} per call. Only the person running this server can raise MARKET_MAX_PRICE_WEI, or set it to none, in the server's environment. Nothing was spent.`,
      { code: 'price_above_cap' },
    )
  }
}

export class InsufficientBalanceError extends BaseError {
  override name = 'InsufficientBalanceError'
  constructor({
    buyer,
    balance,
    required,
    reason,
  }: {
    buyer: string
    balance: bigint
    /** Null when the node refused to estimate the gas, so no exact figure is known. */
    required: bigint | null
    reason: string
  }) {
    super(
      required === null
        ? `Buyer "${buyer}" holds ${balance} wei, not enough for ${reason}. Nothing was spent.`
        : `Buyer "${buyer}" holds ${balance} wei but needs at least ${required} wei (${reason}). Nothing was spent.`,
      { code: 'insufficient_balance' },
    )
  }
}

/**
 * The `createJob` transaction was sent but its outcome cannot be established. It is never signed
 * twice: a `run` for the same service and prompt sends the same bytes again and reads them.
 */
export class CreateJobUnconfirmedError extends BaseError {
  override name = 'CreateJobUnconfirmedError'
  constructor({ transactionHash, cause }: { transactionHash: string; cause?: unknown }) {
    super(
      `The createJob transaction "${transactionHash}" was sent but its receipt could not be read. Running the same service and prompt again sends this same signed transaction again, never a second payment.`,
      { code: 'create_job_unconfirmed', cause },
    )
  }
}

export class CreateJobRevertedError extends BaseError {
  override name = 'CreateJobRevertedError'
  constructor({ transactionHash }: { transactionHash: string }) {
    super(`The createJob transaction "${transactionHash}" reverted; only its gas was spent.`, {
      code: 'create_job_reverted',
    })
  }
}

/** The seller did not settle in time; the escrow came back to the buyer. */
export class JobExpiredRefundedError extends BaseError {
  override name = 'JobExpiredRefundedError'
  constructor({ jobId, refundHash, createJobHash }: { jobId: bigint; refundHash: string; createJobHash: string }) {
    super(
      `Job "${jobId}" was not settled before it expired; the escrow was refunded by reclaimExpired in transaction "${refundHash}" (the job was created in "${createJobHash}"). Only gas was spent.`,
      { code: 'job_expired_refunded' },
    )
  }
}

export class RefundFailedError extends BaseError {
  override name = 'RefundFailedError'
  constructor({ jobId, createJobHash, cause }: { jobId: bigint; createJobHash: string; cause?: unknown }) {
    super(
      `Job "${jobId}" expired unsettled but reclaimExpired did not go through; call reclaimExpired(${jobId}) on the escrow to recover the payment (the job was created in "${createJobHash}").`,
      { code: 'refund_failed', cause },
    )
  }
}

/** The job ended in a state other than settled without being refunded by this call. */
export class JobEndedUnsettledError extends BaseError {
  override name = 'JobEndedUnsettledError'
  constructor({ jobId, stateName }: { jobId: bigint; stateName: string }) {
    super(`Job "${jobId}" ended ${stateName} instead of Settled.`, { code: 'job_unsettled' })
  }
}

/** Simulating `createJob` shows it would fail, so it is not sent. */
export class CreateJobWouldRevertError extends BaseError {
  override name = 'CreateJobWouldRevertError'
  constructor({ serviceId, reason, cause }: { serviceId: bigint; reason: string; cause?: unknown }) {
    super(`createJob for service "${serviceId}" would revert (${reason}), so it was not sent. Nothing was spent.`, {
      code: 'create_job_would_revert',
      cause,
    })
  }
}

/** Something failed after the job was paid for; the job id lets the caller follow it up. */
export class RunInterruptedError extends BaseError {
  override name = 'RunInterruptedError'
  constructor({ jobId, createJobHash, cause }: { jobId: bigint; createJobHash: string; cause?: unknown }) {
    const reason = cause instanceof BaseError ? cause.message : 'the chain stopped answering while it was followed.'
    super(
      `Job "${jobId}" was created and paid in transaction "${createJobHash}", but ${reason.replace(/^./, (first) => first.toLowerCase())} Do not run again: follow it with get_job "${jobId}".`,
      { code: 'run_interrupted', cause },
    )
  }
}

/** The node refused the signed `createJob` transaction; it is not in its pool. */
export class CreateJobRejectedError extends BaseError {
  override name = 'CreateJobRejectedError'
  /** The node's own words, on one short line. */
  readonly reason: string
  constructor({ reason, cause }: { reason: string; cause?: unknown }) {
    super(`The node refused the createJob transaction (${reason}). Nothing was spent.`, {
      code: 'create_job_rejected',
      cause,
    })
    this.reason = reason
  }
}

/**
 * The caller cancelled `run` (an MCP cancel, or the client went away). Before payment nothing was
 * spent; after it, the job stays on chain as it is, and the message says which one to follow.
 */
export class RunCancelledError extends BaseError {
  override name = 'RunCancelledError'
  constructor({ jobId, createJobHash }: { jobId?: bigint; createJobHash?: string } = {}) {
    super(
      jobId === undefined
        ? 'run was cancelled before paying. Nothing was spent.'
        : `run was cancelled while waiting for job "${jobId}", created and paid in transaction "${createJobHash}". The job stays on chain: the seller may still settle it; follow it with get_job "${jobId}", and if it expires unsettled, reclaimExpired(${jobId}) on the escrow refunds it. Do not run again for the same prompt.`,
      { code: 'run_cancelled' },
    )
  }
}

/**
 * Whether this buyer already has an open job for the same service and prompt could not be read, so
 * `run` does not pay: a retry of a call that timed out would otherwise pay twice.
 */
export class OpenJobLookupError extends BaseError {
  override name = 'OpenJobLookupError'
  constructor({ serviceId, cause }: { serviceId: bigint; cause?: unknown }) {
    super(
      `The node did not answer whether this buyer already has an open job for service "${serviceId}" and this prompt (its JobCreated logs and job state), so run did not pay, to avoid paying twice. Try again when the node answers. Nothing was spent.`,
      { code: 'open_job_lookup_failed', cause },
    )
  }
}

/** The service's TEE verdict is below what `MARKET_REQUIRE_TEE` accepts. */
export class TeeRequirementNotMetError extends BaseError {
  override name = 'TeeRequirementNotMetError'
  constructor({ serviceId, verdict, failedChecks, required, isDefault }: {
    serviceId: bigint
    verdict: string
    /** `name: reason` of each check that did not pass. */
    failedChecks: readonly string[]
    required: string
    isDefault: boolean
  }) {
    const setting = `MARKET_REQUIRE_TEE is ${required}${isDefault ? ' (the default)' : ''}`
    const why = failedChecks.length === 0 ? '' : ` Checks not passed: ${failedChecks.join('; ')}.`
    super(
      `Service "${serviceId}" has TEE verdict "${verdict}", below what run accepts: ${setting}.${why} Only the person running this server can lower MARKET_REQUIRE_TEE (to acknowledged, or off) in the server's environment. Nothing was spent.`,
      { code: 'tee_requirement_not_met' },
    )
  }
}
