/** One DER element: its tag, where its content starts and ends, and where the element ends. */
export type DerElement = { tag: number; start: number; contentStart: number; end: number }

/**
 * Reads the DER element at `offset`. Enough of DER for a CRL's outer structure: the bytes a
 * signature covers must be taken as they are, never re-encoded.
 */
export function readDer(bytes: Uint8Array, offset: number): DerElement {
  const tag = bytes[offset]
  let length = bytes[offset + 1]
  if (tag === undefined || length === undefined) throw new RangeError(`No DER element at offset ${offset}.`)
  let contentStart = offset + 2
  if (length & 0x80) {
    const count = length & 0x7f
    if (count === 0 || count > 4) throw new RangeError(`DER length of ${count} bytes at offset ${offset} is not supported.`)
    length = 0
    for (let i = 0; i < count; i++) length = length * 256 + (bytes[contentStart + i] ?? 0)
    contentStart += count
  }
  const end = contentStart + length
  if (end > bytes.length) throw new RangeError(`DER element at offset ${offset} runs past the end (${end} > ${bytes.length}).`)
  return { tag, start: offset, contentStart, end }
}

/** The elements inside a constructed element, in order. */
export function readDerChildren(bytes: Uint8Array, parent: DerElement): DerElement[] {
  const children: DerElement[] = []
  for (let at = parent.contentStart; at < parent.end; at = children[children.length - 1]!.end) children.push(readDer(bytes, at))
  return children
}
