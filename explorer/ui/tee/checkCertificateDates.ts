import { TeeCollateralExpiredError } from '../../../errors/tee.ts'
import type { Certificate } from './readCertificate.ts'

/**
 * dcap-qvl 0.3.9 checks certificate dates through node's `X509Certificate.validFrom`/`validTo`;
 * its browser stand-in has neither, so in a browser an expired certificate would pass unnoticed.
 * This checks every certificate of the chains it verifies, at `now`.
 */
export function checkCertificateDates(certificates: readonly Certificate[], now: Date): void {
  for (const { notBefore, notAfter } of certificates) {
    if (now < notBefore || now > notAfter) {
      throw new TeeCollateralExpiredError({ what: `certificate chain (a certificate valid ${notBefore.toISOString()} to ${notAfter.toISOString()})`, now })
    }
  }
}
