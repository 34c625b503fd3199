import { type Address, type Hex, getAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { TeeReportDataMismatchError } from '../../errors/tee.ts'
import { readReportDataBinding } from '../../tee/readReportDataBinding.ts'

const signer: Address = getAddress('0x70997970c51812dc3a010c7d01b50e20d7e60a8f')
const other: Address = getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc')
const nonce: Hex = `0x${'ab'.repeat(32)}`

// Each layout written out byte by byte, as the brokers' code builds it (cited in readReportDataBinding.ts).
const zeros = (n: number) => Buffer.alloc(n)
const addressBytes = (a: Address) => Buffer.from(a.slice(2), 'hex')
/** 0G broker: `report_data: s.Address.Hex()` (checksummed text), NUL-padded. */
const zeroGAscii = (a: Address) => Buffer.concat([Buffer.from(a, 'ascii'), zeros(64 - 42)])
/** NEAR private-ml-sdk `_build_report_data`: `address.ljust(32, b"\x00") + nonce`. */
const addressNonce = (a: Address, n: Hex) => Buffer.concat([addressBytes(a), zeros(12), Buffer.from(n.slice(2), 'hex')])
/** 0G versioned: a 32-byte header, the address at 32–52. */
const zeroGVersioned = (a: Address) => Buffer.concat([Buffer.from([0x01]), zeros(31), addressBytes(a), zeros(12)])

test('default: dstack/NEAR address ‖ 12 zero bytes ‖ nonce, with the nonce sent', () => {
  expect(readReportDataBinding(addressNonce(signer, nonce), { signingAddress: signer, nonce })).toEqual({ layout: 'address-nonce', nonceBound: true })
})

describe('layouts without a nonce', () => {
  test("0G's ASCII address, zero-padded (any letter case)", () => {
    expect(readReportDataBinding(zeroGAscii(signer), { signingAddress: signer })).toEqual({ layout: '0g-ascii', nonceBound: false })
    expect(readReportDataBinding(Buffer.concat([Buffer.from(signer.toLowerCase(), 'ascii'), zeros(22)]), { signingAddress: signer })).toEqual({ layout: '0g-ascii', nonceBound: false })
  })

  test("0G's versioned layout, the signer at bytes 32–52", () => {
    expect(readReportDataBinding(zeroGVersioned(signer), { signingAddress: signer })).toEqual({ layout: '0g-versioned', nonceBound: false })
  })

  test('address ‖ nonce read without a nonce: bound to the key, not fresh', () => {
    expect(readReportDataBinding(addressNonce(signer, nonce), { signingAddress: signer })).toEqual({ layout: 'address-nonce', nonceBound: false })
  })
})

describe('refusals', () => {
  test('another key in every layout is refused, with the report_data quoted', () => {
    for (const reportData of [zeroGAscii(other), zeroGVersioned(other), addressNonce(other, nonce)]) {
      expect(() => readReportDataBinding(reportData, { signingAddress: signer })).toThrow(TeeReportDataMismatchError)
    }
    expect(() => readReportDataBinding(zeroGAscii(other), { signingAddress: signer })).toThrowErrorMatchingInlineSnapshot(
      `[TeeReportDataMismatchError: The quote's report_data does not name signing address "0x70997970C51812Dc3A010c7d01b50E20d7E60a8f" in any accepted layout (0g-ascii, 0g-versioned, address-nonce): report_data is 0x30783343343443644464423661393030666132623538356464323939653033643132464134323933424300000000000000000000000000000000000000000000.]`,
    )
  })

  test('with a nonce sent, a quote without it (a possible replay) is refused', () => {
    expect(() => readReportDataBinding(zeroGAscii(signer), { signingAddress: signer, nonce })).toThrow(TeeReportDataMismatchError)
    expect(() => readReportDataBinding(addressNonce(signer, `0x${'cd'.repeat(32)}`), { signingAddress: signer, nonce })).toThrow(TeeReportDataMismatchError)
  })

  test('ASCII text that is the address followed by more text is not the ASCII layout', () => {
    const trailing = Buffer.concat([Buffer.from(`${signer}!`, 'ascii'), zeros(21)])
    expect(() => readReportDataBinding(trailing, { signingAddress: signer })).toThrow(TeeReportDataMismatchError)
  })

  test('report_data of another length is refused', () => {
    expect(() => readReportDataBinding(zeroGAscii(signer).subarray(0, 63), { signingAddress: signer })).toThrow(TeeReportDataMismatchError)
  })
})
