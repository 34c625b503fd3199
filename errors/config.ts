import { BaseError } from './BaseError.ts'

/** A flag, environment variable or deployment record that cannot make a valid configuration. */
export class ConfigError extends BaseError {
  override name = 'ConfigError'
  constructor(message: string, { cause }: { cause?: unknown } = {}) {
    super(message, { code: 'invalid_config', cause })
  }
}
