/**
 * Just enough DER to write the devnet TEE root's certificates and CRLs (X.509, RFC 5280) without
 * a certificate library: each function returns one encoded element.
 */
function element(tag: number, content: Uint8Array): Uint8Array {
  const n = content.length
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : n < 0x10000 ? [0x82, n >> 8, n & 0xff] : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff]
  return Uint8Array.from([tag, ...length, ...content])
}

const concat = (parts: readonly Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]))

export const der = {
  sequence: (...parts: Uint8Array[]) => element(0x30, concat(parts)),
  set: (...parts: Uint8Array[]) => element(0x31, concat(parts)),
  /** A non-negative integer from big-endian bytes (a leading zero is added when the top bit is set). */
  integer: (bytes: Uint8Array) => element(0x02, (bytes[0] ?? 0) & 0x80 ? concat([Uint8Array.of(0), bytes]) : bytes.length === 0 ? Uint8Array.of(0) : bytes),
  small: (value: number) => der.integer(value < 0x80 ? Uint8Array.of(value) : Uint8Array.of(value >> 8, value & 0xff)),
  enumerated: (value: number) => element(0x0a, Uint8Array.of(value)),
  boolean: (value: boolean) => element(0x01, Uint8Array.of(value ? 0xff : 0)),
  octets: (bytes: Uint8Array) => element(0x04, bytes),
  bits: (bytes: Uint8Array) => element(0x03, concat([Uint8Array.of(0), bytes])),
  utf8: (text: string) => element(0x0c, new TextEncoder().encode(text)),
  /** RFC 5280: UTCTime through 2049, GeneralizedTime from 2050. */
  time: (date: Date) => {
    const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14)
    return date.getUTCFullYear() < 2050 ? element(0x17, new TextEncoder().encode(`${iso.slice(2)}Z`)) : element(0x18, new TextEncoder().encode(`${iso}Z`))
  },
  oid: (dotted: string) => {
    const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number)
    const body = [40 * a + b]
    for (const arc of rest) {
      const chunk = [arc & 0x7f]
      for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80)
      body.push(...chunk)
    }
    return element(0x06, Uint8Array.from(body))
  },
  explicit: (tag: number, inner: Uint8Array) => element(0xa0 | tag, inner),
  raw: (bytes: Uint8Array) => bytes,
}
