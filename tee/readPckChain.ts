import { X509Certificate } from 'node:crypto'
import dcap from '@phala/dcap-qvl'
import { TeeQuoteMalformedError } from '../errors/tee.ts'

/**
 * The PCK certificate chain carried in the quote (certification data type 5), leaf first: the
 * PCK certificate, then the PCK CA (processor or platform) that issued it, then the root.
 */
export function readPckChain(quote: Uint8Array): X509Certificate[] {
  try {
    const certs = dcap.utils.extractCerts(Buffer.from(dcap.Quote.parse(quote).rawCertChain()))
    if (certs.length < 2) throw new RangeError(`${certs.length} certificate(s) where a leaf and its CA are needed`)
    return certs.map((der) => new X509Certificate(der))
  } catch (cause) {
    throw new TeeQuoteMalformedError({ reason: `its PCK certificate chain is unreadable (${(cause as Error).message})`, cause })
  }
}
