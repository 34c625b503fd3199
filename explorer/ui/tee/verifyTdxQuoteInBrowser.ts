import dcap, { type Collateral, type TcbStatus } from '@phala/dcap-qvl'
import { Buffer } from 'buffer'
import { TeeDebugTdError } from '../../../errors/tee.ts'
import { checkTcbPolicy } from '../../../tee/checkTcbPolicy.ts'
import { classifyQuoteError } from '../../../tee/classifyQuoteError.ts'
import { defaultTcbPolicy } from '../../../tee/defaultTcbPolicy.ts'
import { type TdxMeasurements, parseTdxQuote } from '../../../tee/parseTdxQuote.ts'
import { checkCertificateDates } from './checkCertificateDates.ts'
import { checkCrlsInBrowser } from './checkCrlsInBrowser.ts'
import { readCertificate } from './readCertificate.ts'
import { readPemCertificates } from './readPemCertificates.ts'

export type VerifyTdxQuoteInBrowserParameters = {
  quote: Uint8Array
  collateral: Collateral
  now: Date
  /** DER of the trusted root; Intel's SGX root (bundled with dcap-qvl) when absent. */
  rootCa?: Uint8Array | undefined
}

export type VerifyTdxQuoteInBrowserReturnType = {
  version: 4 | 5
  tcbStatus: TcbStatus
  advisoryIds: string[]
  measurements: TdxMeasurements
  reportData: Uint8Array
}

/**
 * tee/verifyTdxQuote.ts for the browser, with the default TCB policy: the same refusals in the
 * same order and with the same errors, where node:crypto's certificate and CRL checks are done by
 * readCertificate and noble's P-256 instead, and the certificate dates dcap-qvl skips in a
 * browser (see checkCertificateDates) are checked here.
 */
export function verifyTdxQuoteInBrowser({ quote, collateral, now, rootCa }: VerifyTdxQuoteInBrowserParameters): VerifyTdxQuoteInBrowserReturnType {
  const parsed = parseTdxQuote(quote)
  if (parsed.debug) throw new TeeDebugTdError({ tdAttributes: parsed.tdAttributes })
  // asn1.js, inside dcap-qvl, reads nothing but a Buffer (the `buffer` package in a browser).
  const rootDer = rootCa === undefined ? dcap.constants.TRUSTED_ROOT_CA_DER : Buffer.from(rootCa)
  const pckChain = readPemCertificates(new TextDecoder().decode(dcap.Quote.parse(quote).rawCertChain()))
  const [crlIssuer] = readPemCertificates(collateral.pck_crl_issuer_chain)
  checkCrlsInBrowser({ collateral, pckChain, crlIssuer, rootCa: readCertificate(Uint8Array.from(rootDer)), now })
  checkCertificateDates([...pckChain, ...readPemCertificates(collateral.tcb_info_issuer_chain), ...readPemCertificates(collateral.qe_identity_issuer_chain)], now)
  let verified: dcap.VerifiedReport
  try {
    verified = dcap.QuoteVerifier.newWithRootCa(rootDer).verify(quote, collateral, Math.floor(now.getTime() / 1000))
  } catch (error) {
    throw classifyQuoteError({ error, now, tdAttributes: parsed.tdAttributes, policy: defaultTcbPolicy })
  }
  checkTcbPolicy({ status: verified.status, advisoryIds: verified.advisory_ids, policy: defaultTcbPolicy })
  return {
    version: parsed.version,
    tcbStatus: verified.status,
    advisoryIds: [...verified.advisory_ids],
    measurements: parsed.measurements,
    reportData: parsed.reportData,
  }
}
