import { readDer, readDerChildren } from './readDer.ts'

export type ReadCrlReturnType = {
  /** The signed bytes (`tbsCertList`), exactly as issued. */
  tbs: Uint8Array
  /** The DER `ECDSA-Sig-Value` from the signature BIT STRING. */
  signature: Uint8Array
  thisUpdate: Date
  nextUpdate: Date | undefined
}

const tagInteger = 0x02
const tagUtcTime = 0x17
const tagGeneralizedTime = 0x18

function readTime(bytes: Uint8Array, tag: number, text: string): Date {
  // RFC 5280: UTCTime years 50–99 are 19xx, 00–49 are 20xx; both forms end in Z.
  const full = tag === tagUtcTime ? `${Number(text.slice(0, 2)) >= 50 ? '19' : '20'}${text}` : text
  const iso = `${full.slice(0, 4)}-${full.slice(4, 6)}-${full.slice(6, 8)}T${full.slice(8, 10)}:${full.slice(10, 12)}:${full.slice(12, 14)}Z`
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) throw new RangeError(`CRL time "${text}" is not a valid time.`)
  return date
}

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
      ? readTime(der, t.tag, new TextDecoder().decode(der.subarray(t.contentStart, t.end)))
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
