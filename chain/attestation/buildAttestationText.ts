import { type Hex, stringToHex } from 'viem'
import type { AttestationFields } from '../../contract/attestation.ts'
import { InvalidAttestationFieldError } from '../../errors/attestation.ts'

/**
 * The five fields. Each hash field may be given as 32 bytes of hex with or without a 0x prefix,
 * in any case (so `keccak256(...)` output goes in as it is); it is written as 64 lowercase hex
 * digits without 0x.
 */
export type BuildAttestationTextParameters = AttestationFields

/** The attestation text as 0x hex of its ASCII bytes: the form stored on chain and signed. */
export type BuildAttestationTextReturnType = Hex

/**
 * Writes `<contentHash>:<usageHash>:<providerType>:<providerIdentity>:<tlsCertFingerprint>`.
 * Throws `InvalidAttestationFieldError` for a value that would not parse back to the same five
 * fields: a hash that is not 32 bytes of hex, a ':' or a non-ASCII character in a text field.
 */
export function buildAttestationText(fields: BuildAttestationTextParameters): BuildAttestationTextReturnType {
  const text = [
    hashField('contentHash', fields.contentHash),
    hashField('usageHash', fields.usageHash),
    textField('providerType', fields.providerType),
    textField('providerIdentity', fields.providerIdentity),
    hashField('tlsCertFingerprint', fields.tlsCertFingerprint),
  ].join(':')
  return stringToHex(text)
}

function hashField(field: string, value: string): string {
  const digits = value.startsWith('0x') ? value.slice(2) : value
  if (!/^[0-9a-fA-F]{64}$/.test(digits)) {
    throw new InvalidAttestationFieldError({ field, value, reason: 'expected 32 bytes as 64 hex digits, with or without 0x' })
  }
  return digits.toLowerCase()
}

function textField(field: string, value: string): string {
  if (value.includes(':')) {
    throw new InvalidAttestationFieldError({ field, value, reason: "':' separates the fields and cannot appear inside one" })
  }
  if (!/^[\x00-\x7f]*$/.test(value)) {
    throw new InvalidAttestationFieldError({ field, value, reason: 'the attestation text is ASCII only' })
  }
  return value
}
