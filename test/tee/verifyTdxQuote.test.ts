import dcap from '@phala/dcap-qvl'
import { describe, expect, test } from 'vitest'
import {
  TeeCollateralExpiredError,
  TeeCollateralInvalidError,
  TeeDebugTdError,
  TeeNotTdxError,
  TeeQuoteInvalidError,
  TeeQuoteMalformedError,
  TeeTcbNotAcceptedError,
  TeeTcbUnlistedError,
} from '../../errors/tee.ts'
import { readPckChain } from '../../tee/readPckChain.ts'
import { verifyTdxQuote } from '../../tee/verifyTdxQuote.ts'
import { outdatedClock, pinnedClock, readCollateral, readQuote, slice, tdOffsets } from './support/fixtures.ts'
import { refusal } from './support/refusal.ts'

const quote = readQuote('tdx_quote')
const collateral = readCollateral('tdx_quote')

test('default: an Intel-signed TDX quote verifies at the pinned clock', () => {
  const verified = verifyTdxQuote({ quote, collateral, now: pinnedClock })
  expect(verified).toMatchObject({ teeType: 'TDX', version: 4, tcbStatus: 'UpToDate', advisoryIds: [], tcbAcceptedBy: 'status', tdAttributes: '0x0000001000000000' })
  expect(verified.measurements.mrTd).toBe(slice(quote, tdOffsets.mrTd, 48))
  expect(verified.measurements.rtmr3).toBe(slice(quote, tdOffsets.rtmr3, 48))
  expect(verified.measurements.mrConfigId).toBe(slice(quote, tdOffsets.mrConfigId, 48))
  expect(Object.values(verified.measurements).every((m) => /^0x[0-9a-f]{96}$/.test(m))).toBe(true)
  expect(slice(verified.reportData, 0, 64)).toBe(slice(quote, tdOffsets.reportData, 64))
  // The PCK CRL ends first (2025-07-19T10:00:35Z), before the TCB info (10:16:03) and QE identity (10:32:27).
  expect(verified.collateralExpiresAt.toISOString()).toBe('2025-07-19T10:00:35.000Z')
})

describe('quote', () => {
  test('one flipped bit in the TD report is refused: the signature no longer covers it', () => {
    const flipped = Uint8Array.from(quote)
    flipped[tdOffsets.mrTd + 5]! ^= 0x01
    const error = refusal(() => verifyTdxQuote({ quote: flipped, collateral, now: pinnedClock }))
    expect(error).toBeInstanceOf(TeeQuoteInvalidError)
    expect(error.message).toMatchInlineSnapshot(`"The TDX quote does not verify: ISV enclave report signature is invalid. A quote signed through Intel's PCK chain to the trusted root is required."`)
    expect((error.cause as Error).message).toBe('ISV enclave report signature is invalid')
  })

  test('one flipped bit in the signature is refused', () => {
    const flipped = Uint8Array.from(quote)
    flipped[48 + 584 + 4 + 10]! ^= 0x80 // inside the ECDSA quote signature, right after the signed part and its length
    expect(refusal(() => verifyTdxQuote({ quote: flipped, collateral, now: pinnedClock }))).toBeInstanceOf(TeeQuoteInvalidError)
  })

  test('an SGX quote is refused as not TDX, though Intel signed it and dcap-qvl accepts it', () => {
    const sgx = readQuote('sgx_quote')
    const sgxCollateral = readCollateral('sgx_quote')
    expect(dcap.verify(sgx, sgxCollateral, pinnedClock.getTime() / 1000).status).toBe('ConfigurationAndSWHardeningNeeded')
    const error = refusal(() => verifyTdxQuote({ quote: sgx, collateral: sgxCollateral, now: pinnedClock }))
    expect(error).toBeInstanceOf(TeeNotTdxError)
    expect(error.message).toMatchInlineSnapshot(`"The quote is an SGX quote of version 3; only an Intel TDX quote (version 4 or 5) is accepted."`)
  })

  test('a debug TD is refused for being one (TUD.DEBUG set in the real quote)', () => {
    const debug = Uint8Array.from(quote)
    debug[tdOffsets.tdAttributes]! |= 0x01
    const error = refusal(() => verifyTdxQuote({ quote: debug, collateral, now: pinnedClock }))
    expect(error).toBeInstanceOf(TeeDebugTdError)
    expect(error.message).toMatchInlineSnapshot(`"The quote is from a debug TD (TD attributes 0x0100001000000000, TUD.DEBUG set): its host can read and alter it, so it is refused."`)
  })

  test('bytes that are no quote are refused as malformed', () => {
    expect(refusal(() => verifyTdxQuote({ quote: quote.subarray(0, 100), collateral, now: pinnedClock }))).toBeInstanceOf(TeeQuoteMalformedError)
  })
})

describe('now', () => {
  test('past the PCK CRL nextUpdate the collateral is expired', () => {
    const error = refusal(() => verifyTdxQuote({ quote, collateral, now: new Date('2025-07-19T10:00:36Z') }))
    expect(error).toBeInstanceOf(TeeCollateralExpiredError)
    expect(error.message).toMatchInlineSnapshot(`"The collateral's PCK CRL (valid 2025-06-19T10:00:35.000Z to 2025-07-19T10:00:35.000Z) is not valid at 2025-07-19T10:00:36.000Z: fresh collateral from Intel's PCS (or the operator's PCCS) is needed."`)
  })

  test('before the collateral was issued it is not valid either', () => {
    expect(refusal(() => verifyTdxQuote({ quote, collateral, now: new Date('2025-06-01T00:00:00Z') }))).toBeInstanceOf(TeeCollateralExpiredError)
  })
})

describe('collateral', () => {
  test("a PCK CRL of the other CA (the Processor CA's, as dcap-qvl 0.3.9's getCollateral fetched) is refused", () => {
    const sgxCollateral = readCollateral('sgx_quote')
    const wrongCa = { ...collateral, pck_crl: sgxCollateral.pck_crl, pck_crl_issuer_chain: sgxCollateral.pck_crl_issuer_chain }
    const error = refusal(() => verifyTdxQuote({ quote, collateral: wrongCa, now: pinnedClock }))
    expect(error).toBeInstanceOf(TeeCollateralInvalidError)
    expect(error.message).toContain('the PCK CRL is issued by "CN=Intel SGX PCK Processor CA, O=Intel Corporation, L=Santa Clara, ST=CA, C=US"')
    expect(error.message).toContain('PCK certificate by "CN=Intel SGX PCK Platform CA, O=Intel Corporation, L=Santa Clara, ST=CA, C=US"')
  })

  test('an issuer chain URL-encoded, as PCS sends it in its headers, is read', () => {
    const encoded = { ...collateral, pck_crl_issuer_chain: encodeURIComponent(collateral.pck_crl_issuer_chain) }
    expect(verifyTdxQuote({ quote, collateral: encoded, now: pinnedClock }).tcbStatus).toBe('UpToDate')
  })

  test('a PCK CRL changed by one bit is refused: its signature fails', () => {
    const crl = Buffer.from(collateral.pck_crl as string, 'hex')
    crl[200]! ^= 0x01
    const error = refusal(() => verifyTdxQuote({ quote, collateral: { ...collateral, pck_crl: crl.toString('hex') }, now: pinnedClock }))
    expect(error).toBeInstanceOf(TeeCollateralInvalidError)
    expect(error.message).toContain('the PCK CRL is not signed by')
  })

  test("TCB info changed by one character is refused: Intel's signature no longer covers it", () => {
    const tcbInfo = collateral.tcb_info.replace('"tcbEvaluationDataNumber":', '"tcbEvaluationDataNumber": ')
    const error = refusal(() => verifyTdxQuote({ quote, collateral: { ...collateral, tcb_info: tcbInfo }, now: pinnedClock }))
    expect(error).toBeInstanceOf(TeeCollateralInvalidError)
    expect((error.cause as Error).message).toBe('Signature is invalid for tcb_info')
  })

  test('collateral of another platform (the SGX FMSPC) is refused', () => {
    expect(refusal(() => verifyTdxQuote({ quote, collateral: readCollateral('sgx_quote'), now: pinnedClock }))).toBeInstanceOf(TeeCollateralInvalidError)
  })
})

describe('rootCa', () => {
  test("another root (here the quote's own PCK Platform CA) does not accept Intel's collateral", () => {
    const notTheRoot = new Uint8Array(readPckChain(quote)[1]!.raw)
    const error = refusal(() => verifyTdxQuote({ quote, collateral, now: pinnedClock, rootCa: notTheRoot }))
    expect(error).toBeInstanceOf(TeeCollateralInvalidError)
    expect(error.message).toContain('the root CA CRL is not signed by')
  })

  test("Intel's root given explicitly is the default", () => {
    expect(verifyTdxQuote({ quote, collateral, now: pinnedClock, rootCa: new Uint8Array(dcap.constants.TRUSTED_ROOT_CA_DER) }).tcbStatus).toBe('UpToDate')
  })
})

describe('policy', () => {
  test('a status outside the accepted ones is refused, naming the policy', () => {
    const error = refusal(() =>
      verifyTdxQuote({ quote, collateral, now: pinnedClock, policy: { acceptedStatuses: ['SWHardeningNeeded'], allowedAdvisoryIds: ['INTEL-SA-00615'] } }),
    )
    expect(error).toBeInstanceOf(TeeTcbNotAcceptedError)
    expect(error.message).toMatchInlineSnapshot(`"The platform's TCB status "UpToDate" (no advisory) is not accepted: accepted statuses are SWHardeningNeeded; advisories allowed beyond them: INTEL-SA-00615."`)
  })

  test('a platform older than every level of its TCB info is refused (the outdated sample, v5)', () => {
    const error = refusal(() => verifyTdxQuote({ quote: readQuote('tdx_quote_outdated'), collateral: readCollateral('tdx_quote_outdated'), now: outdatedClock }))
    expect(error).toBeInstanceOf(TeeTcbUnlistedError)
    expect((error.cause as Error).message).toBe('No matching TCB level found')
  })
})
