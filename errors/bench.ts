import { BaseError } from './BaseError.ts'

/** The bench could not build its market (a failed transaction, an unexpected chain state). */
export class BenchSetupError extends BaseError {
  override name = 'BenchSetupError'
  constructor(message: string, { cause }: { cause?: unknown } = {}) {
    super(message, { code: 'bench_setup_failed', cause })
  }
}

/** A bench option that cannot be used, e.g. `--jobs abc`. */
export class BenchArgumentError extends BaseError {
  override name = 'BenchArgumentError'
  constructor(message: string, { cause }: { cause?: unknown } = {}) {
    super(message, { code: 'bench_argument_invalid', cause })
  }
}

/** A child process of the bench (server under test, ceiling server) failed or answered wrongly. */
export class BenchChildError extends BaseError {
  override name = 'BenchChildError'
  constructor(message: string, { cause, details }: { cause?: unknown; details?: string } = {}) {
    super(message, { code: 'bench_child_failed', cause, details })
  }
}
