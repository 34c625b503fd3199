import type { Hex } from 'viem'

export type ReadSignedJsonReturnType = {
  /** The signed object's text exactly as served: the signature is over these bytes, not a re-serialisation. */
  json: string
  signature: Hex
}

/**
 * Reads Intel's signed JSON (`{"tcbInfo":{…},"signature":"…"}`, `{"enclaveIdentity":{…},…}`)
 * keeping the object's own text. dcap-qvl's fetcher re-serialises it, which only works while
 * Intel's spacing and key order are what `JSON.stringify` writes. Throws a `RangeError` saying
 * what is missing.
 */
export function readSignedJson(body: string, key: string): ReadSignedJsonReturnType {
  const parsed: unknown = JSON.parse(body)
  const object = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {}
  const signature = object.signature
  if (typeof object[key] !== 'object' || object[key] === null) throw new RangeError(`it has no "${key}" object`)
  if (typeof signature !== 'string' || !/^(?:[0-9a-fA-F]{2})+$/.test(signature)) throw new RangeError('its "signature" is not hex')
  const json = rawValueOf(body, key)
  // The scan found the object the parser found, or the text is not read as signed.
  if (json === undefined || JSON.stringify(JSON.parse(json)) !== JSON.stringify(object[key])) throw new RangeError(`its "${key}" text could not be isolated`)
  return { json, signature: `0x${signature.toLowerCase()}` }
}

/** The text of the object after `"key":`, its braces balanced outside strings. */
function rawValueOf(body: string, key: string): string | undefined {
  const marker = new RegExp(`"${key}"\\s*:\\s*`).exec(body)
  if (marker === null) return undefined
  const start = marker.index + marker[0].length
  let depth = 0
  let inString = false
  for (let index = start; index < body.length; index++) {
    const char = body[index]
    if (inString) {
      if (char === '\\') index++
      else if (char === '"') inString = false
    } else if (char === '"') inString = true
    else if (char === '{') depth++
    else if (char === '}' && --depth === 0) return body.slice(start, index + 1)
  }
  return undefined
}
