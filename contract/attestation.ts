import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'
import { describeField } from './describeField.ts'

/** A 64-hex-digit field of the attestation text, without a 0x prefix, exactly as written there. */
const TextHashSchema = extendApi(
  z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, { message: 'Expected 64 hex digits without a 0x prefix.' })
    .describe('64 hex digits without a 0x prefix, as written in the attestation text.'),
  { example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' },
)

/**
 * The five colon-separated fields of an attestation text
 * (`<contentHash>:<usageHash>:<providerType>:<providerIdentity>:<tlsCertFingerprint>`),
 * each exactly as it appears in the text.
 */
// No OpenAPI title: a titled schema becomes a $ref, and OpenAPI 3.0 cannot mark a $ref nullable.
export const AttestationFieldsSchema = extendApi(
  z.object({
    contentHash: describeField(TextHashSchema, { description: 'Hash of the served content (64 hex digits).' }),
    usageHash: describeField(TextHashSchema, { description: 'Hash of the usage record (64 hex digits).' }),
    providerType: extendApi(z.string().describe('Provider type, e.g. "centralized".'), { example: 'centralized' }),
    providerIdentity: extendApi(z.string().describe('Provider name.'), { example: 'openai' }),
    tlsCertFingerprint: describeField(TextHashSchema, {
      description: "Fingerprint of the provider's TLS certificate (64 hex digits).",
    }),
  }),
  {
    description: 'The five fields of the attestation text, parsed; each value is exactly as written in the text.',
    // The fields of the Job's attestationText example, so the documented job is consistent.
    example: {
      contentHash: 'ab'.repeat(32),
      usageHash: 'cd'.repeat(32),
      providerType: 'centralized',
      providerIdentity: 'openai',
      tlsCertFingerprint: 'ef'.repeat(32),
    },
  },
)

export type AttestationFields = z.infer<typeof AttestationFieldsSchema>
