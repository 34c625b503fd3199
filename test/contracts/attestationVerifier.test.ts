import {
  type Address,
  BaseError as ViemBaseError,
  concat,
  ContractFunctionRevertedError,
  type Hex,
  numberToHex,
  parseSignature,
  serializeSignature,
  size,
  stringToHex,
  toHex,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { attestationVerifierAbi } from '../../chain/abi/attestationVerifier.ts'
import { expectRevert, useContractsFixture } from './contractsFixture.ts'
import { attestationText } from './marketActions.ts'

const fixture = useContractsFixture()

const curveOrder = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const halfCurveOrder = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n

const recover = (text: Hex, signature: Hex) =>
  fixture.publicClient.readContract({
    address: fixture.deployment.attestationVerifier,
    abi: attestationVerifierAbi,
    functionName: 'recover',
    args: [text, signature],
  })

/** What `recover` gives: the signer, or the name of OpenZeppelin's error it reverted with. */
async function recoverOutcome(text: Hex, signature: Hex): Promise<Address | string> {
  try {
    return await recover(text, signature)
  } catch (error) {
    const reverted = error instanceof ViemBaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null
    if (!(reverted instanceof ContractFunctionRevertedError) || reverted.data === undefined) throw error
    return reverted.data.errorName
  }
}

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
  expect(await recover(text, signature)).toBe(fixture.signer.address)
  expect(await verify(text, signature, fixture.signer.address)).toBe(true)
  expect(await verify(text, signature, fixture.seller.account.address)).toBe(false)
})

describe('EIP-191 hash', () => {
  test.each([0, 1, 9, 10, 99, 100, 1_000])('a %i-byte text signed by viem recovers its signer', async (length) => {
    const text = stringToHex('x'.repeat(length))
    expect(await recover(text, await sign(text))).toBe(fixture.signer.address)
  })
})

describe('signature length', () => {
  test.each([0, 1, 64, 66, 130])('%i bytes is InvalidSignatureLength', async (length) => {
    const text = attestationText()
    const valid = await sign(text)
    const signature = length <= 65 ? (`0x${valid.slice(2, 2 + length * 2)}` as Hex) : concat([valid, toHex(new Uint8Array(length - 65))])
    expect(size(signature)).toBe(length)
    const [reported] = await expectRevert(recover(text, signature), 'ECDSAInvalidSignatureLength')
    expect(reported).toBe(BigInt(length))
    // verify reverts too, as the reference's does: it compares what recover returns.
    await expectRevert(verify(text, signature, fixture.signer.address), 'ECDSAInvalidSignatureLength')
  })

  test('the length is checked before s', async () => {
    const signature = concat([numberToHex(1n, { size: 32 }), numberToHex(curveOrder - 1n, { size: 32 })])
    expect(await recoverOutcome(attestationText(), signature)).toBe('ECDSAInvalidSignatureLength')
  })
})

describe('s', () => {
  test('the high-s twin of a valid signature is InvalidSignatureS', async () => {
    const text = attestationText()
    const { r, s, yParity } = parseSignature(await sign(text))
    const twin = rawSignature({ r, s: curveOrder - BigInt(s), v: 27 + (1 - (yParity ?? 0)) })
    const [reported] = await expectRevert(recover(text, twin), 'ECDSAInvalidSignatureS')
    expect(reported).toBe(numberToHex(curveOrder - BigInt(s), { size: 32 }))
    await expectRevert(verify(text, twin, fixture.signer.address), 'ECDSAInvalidSignatureS')
  })

  test('s = n/2 passes the s check and s = n/2 + 1 does not', async () => {
    const text = attestationText()
    const { r } = parseSignature(await sign(text))
    expect(await recoverOutcome(text, rawSignature({ r, s: halfCurveOrder, v: 27 }))).not.toBe('ECDSAInvalidSignatureS')
    expect(await recoverOutcome(text, rawSignature({ r, s: halfCurveOrder + 1n, v: 27 }))).toBe('ECDSAInvalidSignatureS')
  })
})

describe('v', () => {
  test.each([0, 1, 2, 26, 29, 255])('v = %i is InvalidSignature', async (v) => {
    const text = attestationText()
    const { r, s } = parseSignature(await sign(text))
    expect(await recoverOutcome(text, rawSignature({ r, s, v }))).toBe('ECDSAInvalidSignature')
  })

  test('both 27 and 28 are accepted', async () => {
    const text = attestationText()
    const signature = parseSignature(await sign(text))
    const v = 27 + (signature.yParity ?? 0)
    expect(await recover(text, serializeSignature(signature))).toBe(fixture.signer.address)
    // The other v recovers some other key: a valid recovery, just not our signer.
    const other = await recover(text, rawSignature({ r: signature.r, s: signature.s, v: v === 27 ? 28 : 27 }))
    expect(other).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(other).not.toBe(fixture.signer.address)
  })
})

test('r = 0 makes ecrecover fail: ECDSAInvalidSignature', async () => {
  const text = attestationText()
  const { s } = parseSignature(await sign(text))
  expect(await recoverOutcome(text, rawSignature({ r: 0n, s, v: 27 }))).toBe('ECDSAInvalidSignature')
})

test('verify never says true for the zero address: a failed recovery reverts', async () => {
  await expectRevert(verify(attestationText(), '0x', '0x0000000000000000000000000000000000000000'), 'ECDSAInvalidSignatureLength')
})

describe('parseAttestationText', () => {
  const parse = (text: Hex) =>
    fixture.publicClient.readContract({
      address: fixture.deployment.attestationVerifier,
      abi: attestationVerifierAbi,
      functionName: 'parseAttestationText',
      args: [text],
    })
  const a = 'a'.repeat(64)
  const b = 'B'.repeat(64)
  const c = '0123456789abcdefABCDEF'.padEnd(64, '9')
  const word = (digits: string): Hex => `0x${digits.toLowerCase()}`

  test('returns the five fields; hex in either case', async () => {
    expect(await parse(stringToHex(`${a}:${b}:centralized:api.openai.com:${c}`))).toEqual([
      word(a),
      word(b),
      'centralized',
      'api.openai.com',
      word(c),
    ])
  })

  test('provider fields may be empty and hold UTF-8', async () => {
    expect(await parse(stringToHex(`${a}:${b}::提供者:${c}`))).toEqual([word(a), word(b), '', '提供者', word(c)])
    expect(await parse(stringToHex(`${a}:${b}:xy::${c}`))).toEqual([word(a), word(b), 'xy', '', word(c)])
  })

  test.each([
    ['InvalidLength', 'a 196-byte text with both provider fields empty', `${a}:${b}:::${c}`],
    ['InvalidLength', 'a 197-byte text', `${a}:${b}:x::${c}`],
    ['InvalidLength', 'a fingerprint of 63 digits', `${a}:${b}:centralized:openai:${c.slice(1)}`],
    ['InvalidLength', 'a fingerprint of 65 digits', `${a}:${b}:centralized:openai:${c}0`],
    ['InvalidLength', 'a fifth colon (the fingerprint runs past it)', `${a}:${b}:centralized:openai:${c}:`],
    ['MissingSeparator', 'no colon after the content hash', `${a}-${b}:centralized:openai:${c}`],
    ['MissingSeparator', 'no colon after the usage hash', `${a}:${b}-centralized:openai:${c}`],
    ['MissingSeparator', 'four fields', `${a}:${b}:centralized-openai-${c}`],
    ['InvalidHexChar', 'a non-hex content hash', `${'g'.repeat(64)}:${b}:centralized:openai:${c}`],
    ['InvalidHexChar', 'a 0x-prefixed usage hash', `${a}:0x${b.slice(2)}:centralized:openai:${c}`],
    ['InvalidHexChar', 'a non-hex fingerprint', `${a}:${b}:centralized:openai:${'z'.repeat(64)}`],
  ])('reverts with %s for %s', async (errorName, _, text) => {
    await expectRevert(parse(stringToHex(text)), errorName)
  })
})
