import { secp256k1 } from '@noble/curves/secp256k1'
import {
  type Hex,
  bytesToHex,
  concatHex,
  hexToBytes,
  keccak256,
  recoverMessageAddress,
  sliceHex,
  stringToHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { buildAttestationText } from '../../chain/attestation/buildAttestationText.ts'
import { parseAttestationText } from '../../chain/attestation/parseAttestationText.ts'
import { recoverAttestationSigner } from '../../chain/attestation/recoverAttestationSigner.ts'
import { signAttestation } from '../../chain/attestation/signAttestation.ts'
import { verifyAttestation } from '../../chain/attestation/verifyAttestation.ts'
import type { AttestationFields } from '../../contract/attestation.ts'
import { partsOf, withParts } from './support/signatureParts.ts'

// Hardhat's standard test accounts #1 and #2: public, funded on every devnet.
const oldKey: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const newKey: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'
const oldSigner = privateKeyToAccount(oldKey).address
const newSigner = privateKeyToAccount(newKey).address

const n = secp256k1.CURVE.n

const fields: AttestationFields = {
  contentHash: keccak256(stringToHex('content')).slice(2),
  usageHash: keccak256(stringToHex('usage')).slice(2),
  providerType: 'centralized',
  providerIdentity: 'openai',
  tlsCertFingerprint: keccak256(stringToHex('tls')).slice(2),
}
const text = buildAttestationText(fields)

/** The smallest x below n that is not the x coordinate of any secp256k1 point. */
function notOnCurveX(): bigint {
  for (let x = 1n; ; x++) {
    try {
      secp256k1.ProjectivePoint.fromHex(`02${x.toString(16).padStart(64, '0')}`)
    } catch {
      return x
    }
  }
}

test('default', async () => {
  const signature = await signAttestation(oldKey, { text })
  expect(parseAttestationText(text)).toEqual(fields)
  expect(recoverAttestationSigner({ text, signature })).toEqual({ signer: oldSigner, error: null })
  expect(verifyAttestation({ text, signature, expectedSigner: oldSigner })).toEqual({
    ok: true,
    recoveredSigner: oldSigner,
    expectedSigner: oldSigner,
    note: `The signature recovers to ${oldSigner}, the service's registered signingAddress.`,
  })
})

describe('buildAttestationText', () => {
  test('writes five colon-separated fields', () => {
    expect(Buffer.from(hexToBytes(text)).toString('ascii')).toBe(
      `${fields.contentHash}:${fields.usageHash}:centralized:openai:${fields.tlsCertFingerprint}`,
    )
  })

  test('takes hashes with or without 0x, any case, and writes them lowercase without 0x', () => {
    const built = buildAttestationText({
      ...fields,
      contentHash: `0x${fields.contentHash.toUpperCase()}`,
      usageHash: fields.usageHash.toUpperCase(),
    })
    expect(built).toBe(text)
  })

  test('allows an empty provider field while the two take 2 bytes together (a text of 198 bytes)', () => {
    const built = buildAttestationText({ ...fields, providerType: '', providerIdentity: 'ab' })
    expect(hexToBytes(built)).toHaveLength(198)
    expect(parseAttestationText(built)).toEqual({ ...fields, providerType: '', providerIdentity: 'ab' })
  })

  test('rejects provider fields under 2 bytes together: the reference verifier would not parse the text', () => {
    expect(() => buildAttestationText({ ...fields, providerType: '', providerIdentity: '' }))
      .toThrowErrorMatchingInlineSnapshot(
        `[InvalidAttestationFieldError: Attestation field providerIdentity "" is not allowed: providerType and providerIdentity must take at least 2 bytes together (the text at least 198 bytes).]`,
      )
    expect(() => buildAttestationText({ ...fields, providerType: 'x', providerIdentity: '' })).toThrow(/at least 2 bytes/)
  })

  test('rejects a colon inside a field', () => {
    expect(() => buildAttestationText({ ...fields, providerIdentity: 'https://api.example' }))
      .toThrowErrorMatchingInlineSnapshot(
        `[InvalidAttestationFieldError: Attestation field providerIdentity "https://api.example" is not allowed: ':' separates the fields and cannot appear inside one.]`,
      )
    expect(() => buildAttestationText({ ...fields, providerType: 'a:b' })).toThrow(/providerType/)
  })

  test('writes provider fields as UTF-8, which parse back', () => {
    const built = buildAttestationText({ ...fields, providerType: 'décentralisé', providerIdentity: '提供者 🚀' })
    expect(parseAttestationText(built)).toEqual({ ...fields, providerType: 'décentralisé', providerIdentity: '提供者 🚀' })
    // One character, two bytes: enough for the 198-byte minimum.
    expect(parseAttestationText(buildAttestationText({ ...fields, providerType: 'é', providerIdentity: '' }))).toMatchObject({
      providerType: 'é',
    })
  })

  test('rejects a lone surrogate, which UTF-8 cannot hold', () => {
    expect(() => buildAttestationText({ ...fields, providerIdentity: 'a\uD800' })).toThrow(/lone surrogate/)
  })

  test('rejects a hash that is not 32 bytes of hex', () => {
    expect(() => buildAttestationText({ ...fields, usageHash: 'abc' })).toThrowErrorMatchingInlineSnapshot(
      `[InvalidAttestationFieldError: Attestation field usageHash "abc" is not allowed: expected 32 bytes as 64 hex digits, with or without 0x.]`,
    )
    expect(() => buildAttestationText({ ...fields, tlsCertFingerprint: `${fields.tlsCertFingerprint}00` })).toThrow(
      /tlsCertFingerprint/,
    )
    expect(() => buildAttestationText({ ...fields, contentHash: 'g'.repeat(64) })).toThrow(/contentHash/)
  })

  test('has the error code the REST and MCP layers branch on', () => {
    expect(() => buildAttestationText({ ...fields, usageHash: '' })).toThrow(
      expect.objectContaining({ code: 'invalid_attestation_field' }),
    )
  })
})

describe('parseAttestationText', () => {
  const ascii = (value: string): Hex => stringToHex(value)
  const h = 'ab'.repeat(32)

  test('keeps each field exactly as written, uppercase hex included', () => {
    expect(parseAttestationText(ascii(`${h.toUpperCase()}:${h}:centralized:openai:${h}`))).toEqual({
      contentHash: h.toUpperCase(),
      usageHash: h,
      providerType: 'centralized',
      providerIdentity: 'openai',
      tlsCertFingerprint: h,
    })
  })

  test('provider fields hold any bytes but ":", UTF-8 included, and either may be empty', () => {
    expect(parseAttestationText(stringToHex(`${h}:${h}:centralized:café:${h}`))).toMatchObject({ providerIdentity: 'café' })
    expect(parseAttestationText(ascii(`${h}:${h}::ab:${h}`))).toMatchObject({ providerType: '', providerIdentity: 'ab' })
    expect(parseAttestationText(ascii(`${h}:${h}:ab::${h}`))).toMatchObject({ providerType: 'ab', providerIdentity: '' })
    // Bytes that are not UTF-8 still parse (as on chain); the field shows U+FFFD for them.
    const text = concatHex([ascii(`${h}:${h}:centralized:`), '0xff', ascii(`:${h}`)])
    expect(parseAttestationText(text)).toMatchObject({ providerIdentity: '\uFFFD' })
  })

  test.each([
    ['empty text', '0x' as Hex],
    ['196 bytes: both provider fields empty', ascii(`${h}:${h}:::${h}`)],
    ['197 bytes', ascii(`${h}:${h}:x::${h}`)],
    ['four fields', ascii(`${h}:${h}:centralized:${h}`)],
    ['six fields', ascii(`${h}:${h}:centralized:https://x:${h}`)],
    ['a short hash', ascii(`${h.slice(2)}:${h}:centralized:openai:${h}`)],
    ['a long hash', ascii(`${h}:${h}00:centralized:openai:${h}`)],
    ['a 0x-prefixed hash', ascii(`0x${h}:${h}:centralized:openai:${h}`)],
    ['a non-hex digit', ascii(`${h}:${h}:centralized:openai:${h.slice(1)}g`)],
    ['a trailing byte after the fingerprint', concatHex([ascii(`${h}:${h}:centralized:openai:${h}`), '0xff'])],
    ['odd-length hex', `${ascii(`${h}:${h}:centralized:openai:${h}`)}0` as Hex],
    ['non-hex input', '0xzz' as Hex],
  ])('returns null for %s', (_, input) => {
    expect(parseAttestationText(input)).toBeNull()
  })
})

describe('signAttestation', () => {
  test('signs 65 bytes with v 27 or 28 and a low s', async () => {
    for (const key of [oldKey, newKey]) {
      const signature = await signAttestation(key, { text })
      const { s, v } = partsOf(signature)
      expect(hexToBytes(signature).length).toBe(65)
      expect([27, 28]).toContain(v)
      expect(s <= n / 2n).toBe(true)
    }
  })

  test('an account and its private key sign identically', async () => {
    expect(await signAttestation(privateKeyToAccount(newKey), { text })).toBe(await signAttestation(newKey, { text }))
  })

  test('signs the EIP-191 hash of the text bytes', async () => {
    const signature = await signAttestation(newKey, { text })
    expect(await recoverMessageAddress({ message: { raw: text }, signature })).toBe(newSigner)
  })
})

describe('recoverAttestationSigner', () => {
  test('recovers each signer', async () => {
    for (const [key, signer] of [[oldKey, oldSigner], [newKey, newSigner]] as const) {
      const signature = await signAttestation(key, { text })
      expect(recoverAttestationSigner({ text, signature })).toEqual({ signer, error: null })
    }
  })

  test('a tampered text recovers a different signer, not an error', async () => {
    const signature = await signAttestation(oldKey, { text })
    const bytes = hexToBytes(text)
    bytes[3] = (bytes[3] ?? 0) ^ 1
    const result = recoverAttestationSigner({ text: bytesToHex(bytes), signature })
    expect(result.error).toBeNull()
    expect(result.signer).not.toBe(oldSigner)
  })

  test.each([0, 64, 66, 130])('a %i-byte signature is invalid_signature_length', async (length) => {
    const signature = await signAttestation(oldKey, { text })
    const resized = bytesToHex(Uint8Array.from({ length }, (_, i) => hexToBytes(signature)[i % 65] ?? 0))
    expect(recoverAttestationSigner({ text, signature: resized })).toEqual({
      signer: null,
      error: 'invalid_signature_length',
    })
  })

  test('the same signature with s flipped to n - s (and v flipped) is invalid_signature_s', async () => {
    const signature = await signAttestation(oldKey, { text })
    const { s, v } = partsOf(signature)
    const malleated = withParts(signature, { s: n - s, v: v === 27 ? 28 : 27 })
    // viem accepts the malleable twin; the chain does not.
    expect(await recoverMessageAddress({ message: { raw: text }, signature: malleated })).toBe(oldSigner)
    expect(recoverAttestationSigner({ text, signature: malleated })).toEqual({
      signer: null,
      error: 'invalid_signature_s',
    })
  })

  test('s just above n/2 is invalid_signature_s and s = n/2 is not', async () => {
    const signature = await signAttestation(oldKey, { text })
    expect(recoverAttestationSigner({ text, signature: withParts(signature, { s: n / 2n + 1n }) }).error).toBe(
      'invalid_signature_s',
    )
    expect(recoverAttestationSigner({ text, signature: withParts(signature, { s: n / 2n }) }).error).not.toBe(
      'invalid_signature_s',
    )
  })

  test('s is checked before v, as OpenZeppelin does', async () => {
    const signature = await signAttestation(oldKey, { text })
    expect(recoverAttestationSigner({ text, signature: withParts(signature, { s: n - 1n, v: 0 }) }).error).toBe(
      'invalid_signature_s',
    )
  })

  test.each([0, 1, 26, 29, 255])('v = %i is invalid_signature', async (v) => {
    const signature = await signAttestation(oldKey, { text })
    // viem takes v 0/1 as a y parity and recovers a signer; the chain does not.
    expect(recoverAttestationSigner({ text, signature: withParts(signature, { v }) })).toEqual({
      signer: null,
      error: 'invalid_signature',
    })
  })

  test.each([
    ['r = 0', { r: 0n }],
    ['s = 0', { s: 0n }],
    ['r = n', { r: n }],
    ['r = 2^256 - 1', { r: 2n ** 256n - 1n }],
    ['r not on the curve', { r: notOnCurveX() }],
  ])('%s is invalid_signature', async (_, parts) => {
    const signature = await signAttestation(oldKey, { text })
    expect(recoverAttestationSigner({ text, signature: withParts(signature, parts) })).toEqual({
      signer: null,
      error: 'invalid_signature',
    })
  })
})

describe('verifyAttestation', () => {
  test('a signer other than the registered one', async () => {
    const signature = await signAttestation(oldKey, { text })
    expect(verifyAttestation({ text, signature, expectedSigner: newSigner })).toEqual({
      ok: false,
      recoveredSigner: oldSigner,
      expectedSigner: newSigner,
      note: `The signature recovers to ${oldSigner}, which is not the service's registered signingAddress ${newSigner}.`,
    })
  })

  test('a job signed before the service rotated its key', async () => {
    const signature = await signAttestation(oldKey, { text })
    expect(verifyAttestation({ text, signature, expectedSigner: newSigner, attestedSigner: oldSigner })).toEqual({
      ok: false,
      recoveredSigner: oldSigner,
      expectedSigner: newSigner,
      note: `The job was signed by ${oldSigner}, the key recorded when the job was attested; the service has since rotated its signing key to ${newSigner}.`,
    })
  })

  test('compares addresses in any case and returns them checksummed', async () => {
    const signature = await signAttestation(oldKey, { text })
    const result = verifyAttestation({
      text,
      signature,
      expectedSigner: newSigner.toLowerCase() as Hex,
      attestedSigner: oldSigner.toLowerCase() as Hex,
    })
    expect(result.expectedSigner).toBe(newSigner)
    expect(result.note).toContain('rotated its signing key')
  })

  test('a malformed signature names the rule it breaks', async () => {
    const signature = await signAttestation(oldKey, { text })
    const { s } = partsOf(signature)
    const notes = [
      sliceHex(signature, 0, 64),
      withParts(signature, { s: n - s }),
      withParts(signature, { v: 1 }),
    ].map((malformed) => verifyAttestation({ text, signature: malformed, expectedSigner: oldSigner }))
    for (const result of notes) {
      expect(result.ok).toBe(false)
      expect(result.recoveredSigner).toBeNull()
      expect(result.expectedSigner).toBe(oldSigner)
    }
    expect(notes.map((result) => result.note)).toMatchInlineSnapshot(`
      [
        "The signature is malformed: it is 64 bytes long where r‖s‖v takes exactly 65 (invalid_signature_length), so no signer can be recovered.",
        "The signature is malformed: s is in the upper half of the curve order, which makes it malleable (invalid_signature_s), so no signer can be recovered.",
        "The signature is malformed: ecrecover rejects it: v must be 27 or 28, r and s must be non-zero and below the curve order, and r must be a point on the curve (invalid_signature), so no signer can be recovered.",
      ]
    `)
  })

  test('an unparsable text still verifies, with a note', async () => {
    const junk = stringToHex('not five fields')
    const signature = await signAttestation(oldKey, { text: junk })
    const result = verifyAttestation({ text: junk, signature, expectedSigner: oldSigner })
    expect(result.ok).toBe(true)
    expect(result.note).toBe(
      `The signature recovers to ${oldSigner}, the service's registered signingAddress. The attestation text does not parse as the five-field format (the signature covers its bytes as they are).`,
    )
  })
})
