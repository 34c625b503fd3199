import { concat, type Hex, hashMessage, numberToHex, parseSignature, serializeSignature, size, stringToHex, toHex } from 'viem'
import { describe, expect, test } from 'vitest'
import { attestationVerifierAbi } from '../../chain/abi/attestationVerifier.ts'
import { useContractsFixture } from './contractsFixture.ts'
import { attestationText } from './marketActions.ts'

const fixture = useContractsFixture()

const RecoverError = { NoError: 0, InvalidSignature: 1, InvalidSignatureLength: 2, InvalidSignatureS: 3 } as const
const curveOrder = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const halfCurveOrder = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n

const tryRecover = (text: Hex, signature: Hex) =>
  fixture.publicClient.readContract({
    address: fixture.deployment.attestationVerifier,
    abi: attestationVerifierAbi,
    functionName: 'tryRecover',
    args: [text, signature],
  })

const verify = (text: Hex, signature: Hex, expected: `0x${string}`) =>
  fixture.publicClient.readContract({
    address: fixture.deployment.attestationVerifier,
    abi: attestationVerifierAbi,
    functionName: 'verify',
    args: [text, signature, expected],
  })

/** r‖s‖v with v written as the given byte, whatever it is. */
function rawSignature({ r, s, v }: { r: Hex | bigint; s: Hex | bigint; v: number }): Hex {
  return concat([numberToHex(BigInt(r), { size: 32 }), numberToHex(BigInt(s), { size: 32 }), toHex(v, { size: 1 })])
}

const sign = (text: Hex): Promise<Hex> => fixture.signer.signMessage({ message: { raw: text } })

test('default: a valid signature recovers the signer and verifies', async () => {
  const text = attestationText()
  const signature = await sign(text)
  expect(await tryRecover(text, signature)).toEqual([fixture.signer.address, RecoverError.NoError])
  expect(await verify(text, signature, fixture.signer.address)).toBe(true)
  expect(await verify(text, signature, fixture.seller.account.address)).toBe(false)
})

describe('EIP-191 hash', () => {
  test.each([0, 1, 9, 10, 99, 100, 1_000])('matches viem hashMessage for %i bytes', async (length) => {
    const text = stringToHex('x'.repeat(length))
    const hash = await fixture.publicClient.readContract({
      address: fixture.deployment.attestationVerifier,
      abi: attestationVerifierAbi,
      functionName: 'toEthSignedMessageHash',
      args: [text],
    })
    expect(hash).toBe(hashMessage({ raw: text }))
  })

  test('an empty text signs and recovers', async () => {
    expect(await tryRecover('0x', await sign('0x'))).toEqual([fixture.signer.address, RecoverError.NoError])
  })
})

describe('signature length', () => {
  test.each([0, 1, 64, 66, 130])('%i bytes is InvalidSignatureLength', async (length) => {
    const text = attestationText()
    const valid = await sign(text)
    const signature = length <= 65 ? (`0x${valid.slice(2, 2 + length * 2)}` as Hex) : concat([valid, toHex(new Uint8Array(length - 65))])
    expect(size(signature)).toBe(length)
    expect(await tryRecover(text, signature)).toEqual(['0x0000000000000000000000000000000000000000', RecoverError.InvalidSignatureLength])
    expect(await verify(text, signature, fixture.signer.address)).toBe(false)
  })

  test('the length is checked before s', async () => {
    const signature = concat([numberToHex(1n, { size: 32 }), numberToHex(curveOrder - 1n, { size: 32 })])
    expect((await tryRecover(attestationText(), signature))[1]).toBe(RecoverError.InvalidSignatureLength)
  })
})

describe('s', () => {
  test('the high-s twin of a valid signature is InvalidSignatureS', async () => {
    const text = attestationText()
    const { r, s, yParity } = parseSignature(await sign(text))
    const twin = rawSignature({ r, s: curveOrder - BigInt(s), v: 27 + (1 - (yParity ?? 0)) })
    expect(await tryRecover(text, twin)).toEqual(['0x0000000000000000000000000000000000000000', RecoverError.InvalidSignatureS])
    expect(await verify(text, twin, fixture.signer.address)).toBe(false)
  })

  test('s = n/2 passes the s check and s = n/2 + 1 does not', async () => {
    const text = attestationText()
    const { r } = parseSignature(await sign(text))
    const [, atHalf] = await tryRecover(text, rawSignature({ r, s: halfCurveOrder, v: 27 }))
    expect(atHalf).not.toBe(RecoverError.InvalidSignatureS)
    const [, aboveHalf] = await tryRecover(text, rawSignature({ r, s: halfCurveOrder + 1n, v: 27 }))
    expect(aboveHalf).toBe(RecoverError.InvalidSignatureS)
  })
})

describe('v', () => {
  test.each([0, 1, 2, 26, 29, 255])('v = %i is InvalidSignature', async (v) => {
    const text = attestationText()
    const { r, s } = parseSignature(await sign(text))
    expect(await tryRecover(text, rawSignature({ r, s, v }))).toEqual([
      '0x0000000000000000000000000000000000000000',
      RecoverError.InvalidSignature,
    ])
  })

  test('both 27 and 28 are accepted', async () => {
    const text = attestationText()
    const signature = parseSignature(await sign(text))
    const v = 27 + (signature.yParity ?? 0)
    expect(await tryRecover(text, serializeSignature(signature))).toEqual([fixture.signer.address, RecoverError.NoError])
    // The other v recovers some other key: a valid recovery, just not our signer.
    const [other, error] = await tryRecover(text, rawSignature({ r: signature.r, s: signature.s, v: v === 27 ? 28 : 27 }))
    expect(error).toBe(RecoverError.NoError)
    expect(other).not.toBe(fixture.signer.address)
  })
})

test('r = 0 makes ecrecover fail: InvalidSignature', async () => {
  const text = attestationText()
  const { s } = parseSignature(await sign(text))
  expect(await tryRecover(text, rawSignature({ r: 0n, s, v: 27 }))).toEqual([
    '0x0000000000000000000000000000000000000000',
    RecoverError.InvalidSignature,
  ])
})

test('verify is false for a zero expected address when recovery fails', async () => {
  const text = attestationText()
  expect(await verify(text, '0x', '0x0000000000000000000000000000000000000000')).toBe(false)
})
