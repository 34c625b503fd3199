import { BaseError } from './BaseError.ts'

/** A field given to `buildAttestationText` cannot be written into the five-field text. */
export class InvalidAttestationFieldError extends BaseError {
  override name = 'InvalidAttestationFieldError'

  constructor({ field, value, reason }: { field: string; value: string; reason: string }) {
    super(`Attestation field ${field} "${value}" is not allowed: ${reason}.`, {
      code: 'invalid_attestation_field',
    })
  }
}
