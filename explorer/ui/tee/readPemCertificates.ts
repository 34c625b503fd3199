import dcap from '@phala/dcap-qvl'
import { Buffer } from 'buffer'
import { type Certificate, readCertificate } from './readCertificate.ts'

/** The certificates of a PEM chain (URL-encoded, as PCS sends it in a header, or not), in order. */
export function readPemCertificates(chain: string): Certificate[] {
  const text = /%[0-9A-Fa-f]{2}/.test(chain) ? decodeURIComponent(chain) : chain
  return dcap.utils.extractCerts(Buffer.from(text)).map((der) => readCertificate(Uint8Array.from(der)))
}
