/**
 * What a reader cannot see, or what changes how the text after it reads: control characters
 * (C0, DEL, C1: a newline can start a line of the writer's choosing), format characters (the bidi
 * overrides, isolates and marks that turn "Seller: 0x…" around; zero-width joiners and spaces),
 * the line and paragraph separators, and lone surrogates. Global: use it with `replace` or
 * `matchAll`, which start from the beginning every time.
 */
export const controlCharacters = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu

/**
 * Printable ASCII holds none of them: one scan of this simple class answers for most text (a
 * record's JSON, unless a seller wrote beyond ASCII) in half the time of the replace or less
 * (0.9-1.4 against 2.1-4.3 µs for a job's 1,428 characters of JSON, five rounds each).
 */
const printableAscii = /^[\x20-\x7e]*$/

/** The short escapes JSON and JavaScript share; everything else is written `\uXXXX`. */
const shortEscapes: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/**
 * The text with each character of `controlCharacters` written as its escape (`\n`, `\u202e`), one
 * `\uXXXX` per UTF-16 unit: the result is still valid inside a JSON string and means the same
 * there, so it serves JSON text as well as a sentence.
 */
export function escapeControlCharacters(text: string): string {
  if (printableAscii.test(text)) return text
  return text.replace(controlCharacters, (character) => shortEscapes[character] ?? toUnitEscapes(character))
}

function toUnitEscapes(character: string): string {
  let escaped = ''
  for (let index = 0; index < character.length; index++) escaped += `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`
  return escaped
}
