import { type X509Certificate, verify } from 'node:crypto'
import type { Collateral } from '@phala/dcap-qvl'
import { TeeCollateralExpiredError, TeeCollateralInvalidError } from '../errors/tee.ts'
import { readCrl } from './readCrl.ts'
import { readPemChain } from './readPemChain.ts'

export type VerifyCollateralCrlsParameters = {
  collateral: Collateral
  /** The quote's PCK chain, leaf first (from `readPckChain`). */
  pckChain: readonly X509Certificate[]
  rootCa: X509Certificate
  now: Date
}

export type VerifyCollateralCrlsReturnType = {
  /** The earliest `nextUpdate` of the two CRLs: the collateral is stale after it. */
  nextUpdate: Date | undefined
}

export type VerifyCollateralCrlsErrorType = TeeCollateralInvalidError | TeeCollateralExpiredError

function bytesOf(value: number[] | string): Uint8Array {
  return typeof value === 'string' ? Buffer.from(value, 'hex') : Uint8Array.from(value)
}

function checkCrl(name: string, der: Uint8Array, issuer: X509Certificate, now: Date): Date | undefined {
  let crl: ReturnType<typeof readCrl>
  try {
    crl = readCrl(der)
  } catch (cause) {
    throw new TeeCollateralInvalidError({ reason: `the ${name} is not a CRL (${(cause as Error).message})`, cause })
  }
  if (!verify('sha256', crl.tbs, { key: issuer.publicKey, dsaEncoding: 'der' }, crl.signature)) {
    throw new TeeCollateralInvalidError({ reason: `the ${name} is not signed by ${issuer.subject.replaceAll('\n', ', ')}` })
  }
  if (now < crl.thisUpdate || (crl.nextUpdate !== undefined && now > crl.nextUpdate)) {
    throw new TeeCollateralExpiredError({ what: `${name} (valid ${crl.thisUpdate.toISOString()} to ${crl.nextUpdate?.toISOString()})`, now })
  }
  return crl.nextUpdate
}

/**
 * dcap-qvl 0.3.9 looks CRLs up only for revoked serial numbers: it checks no CRL's signature,
 * dates or issuer. A stale CRL, or one of the other PCK CA (the collateral its `getCollateral`
 * fetched for every quote before the patch in `patches/`), would pass silently: a revoked
 * platform key would go unnoticed. These checks close that gap before dcap-qvl runs.
 */
export function verifyCollateralCrls({ collateral, pckChain, rootCa, now }: VerifyCollateralCrlsParameters): VerifyCollateralCrlsReturnType {
  const rootNext = checkCrl('root CA CRL', bytesOf(collateral.root_ca_crl), rootCa, now)
  const [crlIssuer] = readPemChain(collateral.pck_crl_issuer_chain)
  const pckIssuer = pckChain[1]
  if (crlIssuer === undefined || pckIssuer === undefined) {
    throw new TeeCollateralInvalidError({ reason: 'the PCK CRL issuer chain or the quote\'s PCK CA certificate is missing' })
  }
  if (!crlIssuer.verify(rootCa.publicKey)) {
    throw new TeeCollateralInvalidError({ reason: 'the PCK CRL issuer is not certified by the trusted root' })
  }
  if (crlIssuer.subject !== pckChain[0]?.issuer) {
    throw new TeeCollateralInvalidError({
      reason: `the PCK CRL is issued by "${crlIssuer.subject.replaceAll('\n', ', ')}" but the quote's PCK certificate by "${pckChain[0]?.issuer.replaceAll('\n', ', ')}": fetch the CRL of that CA`,
    })
  }
  const pckNext = checkCrl('PCK CRL', bytesOf(collateral.pck_crl), crlIssuer, now)
  const next = [rootNext, pckNext].filter((d): d is Date => d !== undefined)
  return { nextUpdate: next.length === 0 ? undefined : new Date(Math.min(...next.map(Number))) }
}
