import { type Hex, hexToBytes } from 'viem'
import { type AttestationFields, AttestationFieldsSchema } from '../../contract/attestation.ts'

export type ParseAttestationTextReturnType = AttestationFields | null

/**
 * Splits an attestation text (0x hex of its bytes) into its five fields, each exactly as written
 * (hash fields keep their case). Returns `null` when the bytes are not ASCII, there are not
 * exactly five ':'-separated fields, or a hash field is not 64 hex digits. Never throws: texts
 * come from the chain and may be anything.
 */
export function parseAttestationText(text: Hex): ParseAttestationTextReturnType {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(text)) return null
  const bytes = hexToBytes(text)
  if (bytes.some((byte) => byte > 0x7f)) return null
  const parts = new TextDecoder().decode(bytes).split(':')
  if (parts.length !== 5) return null
  const [contentHash, usageHash, providerType, providerIdentity, tlsCertFingerprint] = parts
  const parsed = AttestationFieldsSchema.safeParse({
    contentHash,
    usageHash,
    providerType,
    providerIdentity,
    tlsCertFingerprint,
  })
  return parsed.success ? parsed.data : null
}
