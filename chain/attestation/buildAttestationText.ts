import { bytesToHex, type Hex } from 'viem'
import type { AttestationFields } from '../../contract/attestation.ts'
import { InvalidAttestationFieldError } from '../../errors/attestation.ts'

/**
 * The five fields. Each hash field may be given as 32 bytes of hex with or without a 0x prefix,
 * in any case (so `keccak256(...)` output goes in as it is); it is written as 64 lowercase hex
 * digits without 0x.
 */
export type BuildAttestationTextParameters = AttestationFields

/** Two 64-digit hashes, four ':' and the fingerprint make 196 bytes; the reference verifier wants 198. */
const minTextLength = 198

/** The attestation text as 0x hex of its bytes: the form stored on chain and signed. */
export type BuildAttestationTextReturnType = Hex

/**
 * Writes `<contentHash>:<usageHash>:<providerType>:<providerIdentity>:<tlsCertFingerprint>`, the
 * provider fields as UTF-8. Throws `InvalidAttestationFieldError` for a value that would not parse
 * back to the same five fields under the reference verifier's rule: a hash that is not 32 bytes of
 * hex, a ':' in a provider field, or provider fields shorter than 2 bytes together (the reference
 * wants a text of at least 198 bytes).
 */
export function buildAttestationText(fields: BuildAttestationTextParameters): BuildAttestationTextReturnType {
  const text = [
    hashField('contentHash', fields.contentHash),
    hashField('usageHash', fields.usageHash),
    textField('providerType', fields.providerType),
    textField('providerIdentity', fields.providerIdentity),
    hashField('tlsCertFingerprint', fields.tlsCertFingerprint),
  ].join(':')
  const bytes = new TextEncoder().encode(text)
  if (bytes.length < minTextLength) {
    throw new InvalidAttestationFieldError({
      field: 'providerIdentity',
      value: fields.providerIdentity,
      reason: 'providerType and providerIdentity must take at least 2 bytes together (the text at least 198 bytes)',
    })
  }
  return bytesToHex(bytes)
}

function hashField(field: string, value: string): string {
  const digits = value.startsWith('0x') ? value.slice(2) : value
  if (!/^[0-9a-fA-F]{64}$/.test(digits)) {
    throw new InvalidAttestationFieldError({ field, value, reason: 'expected 32 bytes as 64 hex digits, with or without 0x' })
  }
  return digits.toLowerCase()
}

function textField(field: string, value: string): string {
  if (/\p{Cs}/u.test(value)) {
    throw new InvalidAttestationFieldError({ field, value, reason: 'the text is UTF-8, which cannot hold a lone surrogate' })
  }
  if (value.includes(':')) {
    throw new InvalidAttestationFieldError({ field, value, reason: "':' separates the fields and cannot appear inside one" })
  }
  return value
}
