export type ReadOutputFieldReturnType =
  | { output: string }
  | { problem: 'not JSON' | 'no output' | 'too deep' }

/** The deepest nesting parsed; the reference answer `{ jobId, output, outputRootHash }` has 1. */
export const maxOutputBodyDepth = 32

const openers = new Set([0x5b, 0x7b]) // [ {
const closers = new Set([0x5d, 0x7d]) // ] }
const quote = 0x22
const backslash = 0x5c

/**
 * The `output` string of a seller's JSON answer. The body is refused before parsing when it nests
 * deeper than `maxOutputBodyDepth`: a few megabytes of `[` would otherwise build millions of
 * arrays only to be thrown away.
 */
export function readOutputField(body: Buffer): ReadOutputFieldReturnType {
  if (nestsDeeperThan(body, maxOutputBodyDepth)) return { problem: 'too deep' }
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch {
    return { problem: 'not JSON' }
  }
  const output = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as { output?: unknown }).output : undefined
  return typeof output === 'string' ? { output } : { problem: 'no output' }
}

/** One pass over the bytes, skipping strings: UTF-8 never uses these ASCII bytes inside a multi-byte character. */
function nestsDeeperThan(body: Buffer, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < body.length; index++) {
    const byte = body[index]!
    if (inString) {
      if (byte === backslash) index++
      else if (byte === quote) inString = false
    } else if (byte === quote) inString = true
    else if (openers.has(byte)) {
      if (++depth > limit) return true
    } else if (closers.has(byte)) depth--
  }
  return false
}
