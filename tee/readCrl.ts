import { readDer, readDerChildren } from './readDer.ts'
import { readDerTime, tagGeneralizedTime, tagUtcTime } from './readDerTime.ts'

export type ReadCrlReturnType = {
  /** The signed bytes (`tbsCertList`), exactly as issued. */
  tbs: Uint8Array
  /** The DER `ECDSA-Sig-Value` from the signature BIT STRING. */
  signature: Uint8Array
  thisUpdate: Date
  nextUpdate: Date | undefined
}

const tagInteger = 0x02

/** Reads what a CRL's signature and validity checks need (RFC 5280 §5.1), without re-encoding. */
export function readCrl(der: Uint8Array): ReadCrlReturnType {
  const outer = readDer(der, 0)
  const [tbsElement, , signatureElement] = readDerChildren(der, outer)
  if (tbsElement === undefined || signatureElement === undefined) throw new RangeError('A CRL has three parts; fewer were found.')
  const fields = readDerChildren(der, tbsElement)
  // version is optional (v2 CRLs carry it); then signature algorithm, issuer, thisUpdate, nextUpdate?
  const times = fields.slice(fields[0]?.tag === tagInteger ? 3 : 2)
  const [thisUpdate, nextUpdate] = times.map((t) =>
    t.tag === tagUtcTime || t.tag === tagGeneralizedTime
      ? readDerTime(t.tag, new TextDecoder().decode(der.subarray(t.contentStart, t.end)))
      : undefined,
  )
  if (thisUpdate === undefined) throw new RangeError('The CRL has no thisUpdate time.')
  return {
    tbs: der.subarray(tbsElement.start, tbsElement.end),
    // A BIT STRING's first content byte counts unused bits (0 here).
    signature: der.subarray(signatureElement.contentStart + 1, signatureElement.end),
    thisUpdate,
    nextUpdate,
  }
}
