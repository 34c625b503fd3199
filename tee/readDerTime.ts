export const tagUtcTime = 0x17
export const tagGeneralizedTime = 0x18

/** A DER UTCTime or GeneralizedTime (RFC 5280: UTCTime years 50–99 are 19xx, 00–49 are 20xx; both end in Z). */
export function readDerTime(tag: number, text: string): Date {
  const full = tag === tagUtcTime ? `${Number(text.slice(0, 2)) >= 50 ? '19' : '20'}${text}` : text
  const iso = `${full.slice(0, 4)}-${full.slice(4, 6)}-${full.slice(6, 8)}T${full.slice(8, 10)}:${full.slice(10, 12)}:${full.slice(12, 14)}Z`
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) throw new RangeError(`DER time "${text}" is not a valid time.`)
  return date
}
