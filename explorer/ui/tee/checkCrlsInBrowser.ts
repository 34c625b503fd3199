import type { Collateral } from '@phala/dcap-qvl'
import { hexToBytes } from 'viem'
import { TeeCollateralExpiredError, TeeCollateralInvalidError } from '../../../errors/tee.ts'
import { readCrl } from '../../../tee/readCrl.ts'
import type { Certificate } from './readCertificate.ts'
import { verifyEcdsaP256 } from './verifyEcdsaP256.ts'

export type CheckCrlsInBrowserParameters = {
  collateral: Collateral
  /** The quote's PCK chain, leaf first. */
  pckChain: readonly Certificate[]
  /** The first certificate of the collateral's PCK CRL issuer chain. */
  crlIssuer: Certificate | undefined
  rootCa: Certificate
  now: Date
}

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i])

function checkCrl(name: string, hex: string, issuer: Certificate, now: Date): void {
  let crl: ReturnType<typeof readCrl>
  try {
    crl = readCrl(hexToBytes(`0x${hex}`))
  } catch (cause) {
    throw new TeeCollateralInvalidError({ reason: `the ${name} is not a CRL (${(cause as Error).message})`, cause })
  }
  if (!verifyEcdsaP256({ publicKey: issuer.publicKey, data: crl.tbs, signature: crl.signature })) {
    throw new TeeCollateralInvalidError({ reason: `the ${name} is not signed by its issuer` })
  }
  if (now < crl.thisUpdate || (crl.nextUpdate !== undefined && now > crl.nextUpdate)) {
    throw new TeeCollateralExpiredError({ what: `${name} (valid ${crl.thisUpdate.toISOString()} to ${crl.nextUpdate?.toISOString()})`, now })
  }
}

/**
 * tee/verifyCollateralCrls.ts for the browser (that one needs node:crypto): the CRLs dcap-qvl
 * 0.3.9 only searches for serial numbers must be signed by the root and by the CA that issued the
 * quote's PCK certificate, and valid at `now`.
 */
export function checkCrlsInBrowser({ collateral, pckChain, crlIssuer, rootCa, now }: CheckCrlsInBrowserParameters): void {
  checkCrl('root CA CRL', String(collateral.root_ca_crl), rootCa, now)
  const [pck, pckIssuer] = pckChain
  if (crlIssuer === undefined || pck === undefined || pckIssuer === undefined) {
    throw new TeeCollateralInvalidError({ reason: "the PCK CRL issuer chain or the quote's PCK CA certificate is missing" })
  }
  if (!verifyEcdsaP256({ publicKey: rootCa.publicKey, data: crlIssuer.tbs, signature: crlIssuer.signature })) {
    throw new TeeCollateralInvalidError({ reason: 'the PCK CRL issuer is not certified by the trusted root' })
  }
  if (!equal(crlIssuer.subject, pck.issuer)) {
    throw new TeeCollateralInvalidError({ reason: "the PCK CRL is issued by another CA than the quote's PCK certificate: fetch the CRL of that CA" })
  }
  checkCrl('PCK CRL', String(collateral.pck_crl), crlIssuer, now)
}
