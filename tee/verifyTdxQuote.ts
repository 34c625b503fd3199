import { X509Certificate } from 'node:crypto'
import dcap, { type Collateral, type TcbStatus } from '@phala/dcap-qvl'
import type { Hex } from 'viem'
import {
  type TeeCollateralExpiredError,
  type TeeCollateralInvalidError,
  TeeDebugTdError,
  type TeeNotTdxError,
  type TeeQuoteInvalidError,
  type TeeQuoteMalformedError,
  type TeeRevokedError,
  type TeeTcbNotAcceptedError,
  type TeeTcbUnlistedError,
} from '../errors/tee.ts'
import { checkTcbPolicy } from './checkTcbPolicy.ts'
import { classifyQuoteError } from './classifyQuoteError.ts'
import { type TcbPolicy, defaultTcbPolicy } from './defaultTcbPolicy.ts'
import { type TdxMeasurements, parseTdxQuote } from './parseTdxQuote.ts'
import { readPckChain } from './readPckChain.ts'
import { verifyCollateralCrls } from './verifyCollateralCrls.ts'

export type VerifyTdxQuoteParameters = {
  quote: Uint8Array
  collateral: Collateral
  /** The time the collateral and certificates must be valid at. */
  now: Date
  policy?: TcbPolicy | undefined
  /** DER of the trusted root; Intel's SGX root (bundled with dcap-qvl) when absent. */
  rootCa?: Uint8Array | undefined
}

export type VerifyTdxQuoteReturnType = {
  teeType: 'TDX'
  version: 4 | 5
  tcbStatus: TcbStatus
  advisoryIds: string[]
  /** Whether the status passed on its own or through the policy's allowed advisories. */
  tcbAcceptedBy: 'status' | 'advisories'
  measurements: TdxMeasurements
  /** Read from the verified quote: the only `report_data` a binding may be checked against. */
  reportData: Uint8Array
  tdAttributes: Hex
  /** The earliest `nextUpdate` of the collateral used: a verdict built on it expires then. */
  collateralExpiresAt: Date
}

export type VerifyTdxQuoteErrorType =
  | TeeQuoteMalformedError
  | TeeNotTdxError
  | TeeDebugTdError
  | TeeCollateralExpiredError
  | TeeCollateralInvalidError
  | TeeRevokedError
  | TeeQuoteInvalidError
  | TeeTcbNotAcceptedError
  | TeeTcbUnlistedError

function earliestNextUpdate(collateral: Collateral, crlNext: Date | undefined): Date {
  const dates = [JSON.parse(collateral.tcb_info).nextUpdate, JSON.parse(collateral.qe_identity).nextUpdate]
    .map((text: string) => new Date(text))
    .concat(crlNext === undefined ? [] : [crlNext])
  return new Date(Math.min(...dates.map(Number)))
}

/**
 * Verifies a TDX quote offline against the given collateral at `now`: a TDX quote (v4 or v5), not
 * a debug TD, signed through Intel's PCK chain to the root, with fresh CRLs of the right CA, and a
 * TCB status the policy accepts. Throws the first refusal, each with its own error and reason.
 */
export function verifyTdxQuote({ quote, collateral, now, policy = defaultTcbPolicy, rootCa }: VerifyTdxQuoteParameters): VerifyTdxQuoteReturnType {
  const parsed = parseTdxQuote(quote)
  // A debug TD is refused whatever its signature: its host can read and alter it.
  if (parsed.debug) throw new TeeDebugTdError({ tdAttributes: parsed.tdAttributes })
  const rootDer = rootCa === undefined ? dcap.constants.TRUSTED_ROOT_CA_DER : Buffer.from(rootCa)
  const crls = verifyCollateralCrls({ collateral, pckChain: readPckChain(quote), rootCa: new X509Certificate(rootDer), now })
  let verified: dcap.VerifiedReport
  try {
    verified = dcap.QuoteVerifier.newWithRootCa(rootDer).verify(quote, collateral, Math.floor(now.getTime() / 1000))
  } catch (error) {
    throw classifyQuoteError({ error, now, tdAttributes: parsed.tdAttributes, policy })
  }
  const { acceptedBy } = checkTcbPolicy({ status: verified.status, advisoryIds: verified.advisory_ids, policy })
  return {
    teeType: parsed.teeType,
    version: parsed.version,
    tcbStatus: verified.status,
    advisoryIds: [...verified.advisory_ids],
    tcbAcceptedBy: acceptedBy,
    measurements: parsed.measurements,
    reportData: parsed.reportData,
    tdAttributes: parsed.tdAttributes,
    collateralExpiresAt: earliestNextUpdate(collateral, crls.nextUpdate),
  }
}
