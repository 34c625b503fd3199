import { BaseError } from './BaseError.ts'
import { describeLimit } from './describeLimit.ts'

/**
 * Refusals of `run` from the limits only the person sets (spend limit, allow-lists, confirmation),
 * and failures of the spend ledger that enforces the limit. Each comes before any transaction.
 */
export class SpendLimitError extends BaseError {
  override name = 'SpendLimitError'
  constructor({ spent, limit, price, freesAt, isDefault }: { spent: bigint; limit: bigint; price: bigint; freesAt: Date | null; isDefault: boolean }) {
    super(
      `${describeLimit('MARKET_SPEND_LIMIT_WEI', limit, isDefault)} of escrow in any 24 hours; ${spent} wei was spent in the last 24 hours and this service costs ${price} wei. ${
        freesAt === null ? 'Its price alone is above the limit.' : `Room for it frees up at ${freesAt.toISOString()}.`
      } Only the person running this server can raise MARKET_SPEND_LIMIT_WEI, or set it to none, in the server's environment. Nothing was spent.`,
      { code: 'spend_limit_reached' },
    )
  }
}

export class ServiceNotAllowedError extends BaseError {
  override name = 'ServiceNotAllowedError'
  constructor({ serviceId, allowed }: { serviceId: bigint; allowed: readonly bigint[] }) {
    super(
      `Service "${serviceId}" is not in MARKET_ALLOWED_SERVICES (${allowed.join(', ')}); only the person running this server can add it. Nothing was spent.`,
      { code: 'service_not_allowed' },
    )
  }
}

export class SellerNotAllowedError extends BaseError {
  override name = 'SellerNotAllowedError'
  constructor({ serviceId, seller, allowed }: { serviceId: bigint; seller: string; allowed: readonly string[] }) {
    super(
      `Service "${serviceId}" is sold by ${seller}, who is not in MARKET_ALLOWED_SELLERS (${allowed.join(', ')}); only the person running this server can add it. Nothing was spent.`,
      { code: 'seller_not_allowed' },
    )
  }
}

/** The price needs the person's confirmation, and the client cannot ask them. */
export class ConfirmationUnavailableError extends BaseError {
  override name = 'ConfirmationUnavailableError'
  constructor({ price, threshold }: { price: bigint; threshold: bigint }) {
    super(
      `This service costs ${price} wei, above MARKET_CONFIRM_ABOVE_WEI (${threshold} wei), so the person must confirm it, but this MCP client does not support elicitation. Use a client that does, or have the person raise MARKET_CONFIRM_ABOVE_WEI to at least ${price} in the server's environment. Nothing was spent.`,
      { code: 'confirmation_unavailable' },
    )
  }
}

export class ConfirmationRefusedError extends BaseError {
  override name = 'ConfirmationRefusedError'
  constructor({ action }: { action: 'decline' | 'cancel' }) {
    super(
      `The person ${action === 'decline' ? 'declined' : 'dismissed'} the payment when asked to confirm it. Do not retry unless they ask you to. Nothing was spent.`,
      { code: action === 'decline' ? 'confirmation_declined' : 'confirmation_cancelled' },
    )
  }
}

/** The ledger the spend limit is counted in cannot be read, written or locked: refused rather than uncounted. */
export class SpendLedgerError extends BaseError {
  override name = 'SpendLedgerError'
  constructor({ path, problem, cause }: { path: string; problem: string; cause?: unknown }) {
    super(`The spend ledger ${path} ${problem}; run refuses to pay while it cannot count the spending. Nothing was spent.`, {
      code: 'spend_ledger_unusable',
      cause,
    })
  }
}

/** Another process held the lock file for longer than a ledger update ever takes. */
export class LockFileHeldError extends BaseError {
  override name = 'LockFileHeldError'
  constructor({ path, waitedMs }: { path: string; waitedMs: number }) {
    super(`The lock file ${path} was held by another process for more than ${waitedMs / 1_000} s.`, { code: 'lock_file_held' })
  }
}
