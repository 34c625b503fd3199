import { type Hex, hexToBytes } from 'viem'
import type { AttestationFields } from '../../contract/attestation.ts'

export type ParseAttestationTextReturnType = AttestationFields | null

const colon = 0x3a
/** `<64 hex>:<64 hex>:` plus `:` `:` `<64 hex>` is 196 bytes; the reference wants 2 more. */
const minLength = 198
const hashLength = 64
const providerStart = 2 * (hashLength + 1)
const decoder = new TextDecoder()

/**
 * Splits an attestation text (0x hex of its bytes) into its five fields under the reference
 * verifier's rule (`parseAttestationText`): at least 198 bytes; bytes 0–63 and 65–128 hex in
 * either case with ':' at 64 and 129; providerType runs from byte 130 to the next ':',
 * providerIdentity from there to the next ':' (either may be empty and hold any other bytes,
 * UTF-8 included); after the fourth ':' exactly 64 hex digits. Anything else gives `null`.
 * Hash fields are returned exactly as written (their case kept); provider fields are decoded as
 * UTF-8, a byte sequence that is not UTF-8 showing as U+FFFD (the job's attestationText keeps the
 * exact bytes). Never throws: texts come from the chain and may be anything.
 */
export function parseAttestationText(text: Hex): ParseAttestationTextReturnType {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(text)) return null
  const bytes = hexToBytes(text)
  if (bytes.length < minLength) return null
  if (!isHex(bytes, 0, hashLength) || bytes[hashLength] !== colon) return null
  if (!isHex(bytes, hashLength + 1, 2 * hashLength + 1) || bytes[2 * hashLength + 1] !== colon) return null
  const typeEnd = bytes.indexOf(colon, providerStart)
  if (typeEnd === -1) return null
  const identityEnd = bytes.indexOf(colon, typeEnd + 1)
  if (identityEnd === -1 || bytes.length - identityEnd - 1 !== hashLength) return null
  if (!isHex(bytes, identityEnd + 1, bytes.length)) return null
  const ascii = (start: number, end: number): string => String.fromCharCode(...bytes.subarray(start, end))
  return {
    contentHash: ascii(0, hashLength),
    usageHash: ascii(hashLength + 1, 2 * hashLength + 1),
    providerType: decoder.decode(bytes.subarray(providerStart, typeEnd)),
    providerIdentity: decoder.decode(bytes.subarray(typeEnd + 1, identityEnd)),
    tlsCertFingerprint: ascii(identityEnd + 1, bytes.length),
  }
}

function isHex(bytes: Uint8Array, start: number, end: number): boolean {
  for (let index = start; index < end; index++) {
    const byte = bytes[index] as number
    const digit = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    if (!digit) return false
  }
  return true
}
