import { describe, expect, test } from 'vitest'
import {
  TeeCollateralExpiredError,
  TeeCollateralInvalidError,
  TeeDebugTdError,
  TeeQuoteInvalidError,
  TeeQuoteMalformedError,
  TeeRevokedError,
  TeeTcbNotAcceptedError,
  TeeTcbUnlistedError,
} from '../../errors/tee.ts'
import { classifyQuoteError } from '../../tee/classifyQuoteError.ts'
import { defaultTcbPolicy } from '../../tee/defaultTcbPolicy.ts'

const classify = (message: string) =>
  classifyQuoteError({ error: new Error(message), now: new Date('2025-07-01T00:00:00Z'), tdAttributes: '0x01', policy: defaultTcbPolicy })

// Messages as dcap-qvl 0.3.9 throws them (node_modules/@phala/dcap-qvl/src/verify.js, utils.js);
// the real-quote tests reach several of them, the rest need collateral Intel would not sign.
describe('each dcap-qvl refusal has its own error', () => {
  test.each([
    ['TCBInfo expired', TeeCollateralExpiredError],
    ['TCBInfo issue date is in the future', TeeCollateralExpiredError],
    ['QE Identity expired', TeeCollateralExpiredError],
    ['Certificate is expired or not yet valid', TeeCollateralExpiredError],
    ['Certificate is revoked', TeeRevokedError],
    ['Debug mode is enabled', TeeDebugTdError],
    ['No matching TCB level found', TeeTcbUnlistedError],
    ['TCB status is invalid: Revoked', TeeTcbNotAcceptedError],
    ['Signature is invalid for qe_identity', TeeCollateralInvalidError],
    ['Fmspc mismatch', TeeCollateralInvalidError],
    ['TDX quote with non-TDX TCB info in the collateral', TeeCollateralInvalidError],
    ['Failed to decode quote', TeeQuoteMalformedError],
    ['QE report hash mismatch', TeeQuoteInvalidError],
    ['SEPT_VE_DISABLE is not enabled', TeeQuoteInvalidError],
  ] as const)('%s', (message, errorClass) => {
    const error = classify(message)
    expect(error).toBeInstanceOf(errorClass)
    expect((error.cause as Error).message).toBe(message)
  })
})

test('a revoked TCB status names the status and the policy', () => {
  expect(classify('TCB status is invalid: Revoked').message).toMatchInlineSnapshot(`"The platform's TCB status "Revoked" (no advisory) is not accepted: accepted statuses are UpToDate, SWHardeningNeeded; advisories allowed beyond them: none."`)
})
