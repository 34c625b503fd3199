import { readDer, readDerChildren } from '../../../tee/readDer.ts'
import { readDerTime } from '../../../tee/readDerTime.ts'

/** What the browser's checks need of an X.509 certificate (RFC 5280 §4.1), its signed bytes as issued. */
export type Certificate = {
  tbs: Uint8Array
  /** The DER `ECDSA-Sig-Value` from the signature BIT STRING. */
  signature: Uint8Array
  /** The issuer and subject names as DER: compared byte for byte. */
  issuer: Uint8Array
  subject: Uint8Array
  notBefore: Date
  notAfter: Date
  /** The subject's public key: the BIT STRING's bytes (an uncompressed P-256 point for Intel's). */
  publicKey: Uint8Array
}

const tagVersion = 0xa0

/** Reads a DER certificate without re-encoding it, the way tee/readCrl.ts reads a CRL. */
export function readCertificate(der: Uint8Array): Certificate {
  const [tbsElement, , signatureElement] = readDerChildren(der, readDer(der, 0))
  if (tbsElement === undefined || signatureElement === undefined) throw new RangeError('A certificate has three parts; fewer were found.')
  const fields = readDerChildren(der, tbsElement)
  const [, , issuer, validity, subject, keyInfo] = fields.slice(fields[0]?.tag === tagVersion ? 1 : 0)
  if (issuer === undefined || validity === undefined || subject === undefined || keyInfo === undefined) throw new RangeError('The certificate lacks a field of RFC 5280.')
  const [notBefore, notAfter] = readDerChildren(der, validity).map((time) => readDerTime(time.tag, new TextDecoder().decode(der.subarray(time.contentStart, time.end))))
  const key = readDerChildren(der, keyInfo)[1]
  if (notBefore === undefined || notAfter === undefined || key === undefined) throw new RangeError('The certificate has no validity or no public key.')
  const bytes = (element: { start: number; end: number }) => der.subarray(element.start, element.end)
  return {
    tbs: bytes(tbsElement),
    // A BIT STRING's first content byte counts unused bits (0 here).
    signature: der.subarray(signatureElement.contentStart + 1, signatureElement.end),
    issuer: bytes(issuer),
    subject: bytes(subject),
    notBefore,
    notAfter,
    publicKey: der.subarray(key.contentStart + 1, key.end),
  }
}
