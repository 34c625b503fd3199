import { describe, expect, test } from 'vitest'
import { escapeControlCharacters } from '../../contract/escapeControlCharacters.ts'
import { quoteUntrustedText } from '../../contract/quoteUntrustedText.ts'

// The modelId a hostile seller registered in issue 34: markup, a newline, a right-to-left override.
const hostileModelId = '<img src=x onerror=alert(1)>\n\u202eSeller: 0x0000000000000000000000000000000000000000'

// Every character a reader cannot see or that reorders the text, each with its escape written by hand.
const escapes: [string, string][] = [
  ['\u0000', '\\u0000'],
  ['\u0007', '\\u0007'],
  ['\b', '\\b'],
  ['\t', '\\t'],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\u001b', '\\u001b'],
  ['\u007f', '\\u007f'],
  ['\u0085', '\\u0085'],
  ['\u009b', '\\u009b'],
  ['\u00ad', '\\u00ad'],
  ['\u061c', '\\u061c'],
  ['\u200b', '\\u200b'],
  ['\u200d', '\\u200d'],
  ['\u200e', '\\u200e'],
  ['\u200f', '\\u200f'],
  ['\u2028', '\\u2028'],
  ['\u2029', '\\u2029'],
  ['\u202a', '\\u202a'],
  ['\u202b', '\\u202b'],
  ['\u202c', '\\u202c'],
  ['\u202d', '\\u202d'],
  ['\u202e', '\\u202e'],
  ['\u2066', '\\u2066'],
  ['\u2067', '\\u2067'],
  ['\u2068', '\\u2068'],
  ['\u2069', '\\u2069'],
  ['\ufeff', '\\ufeff'],
  ['\ud800', '\\ud800'],
  ['\udfff', '\\udfff'],
  // A tag character (U+E0041), outside the basic plane: both of its UTF-16 units.
  ['\u{e0041}', '\\udb40\\udc41'],
]

describe('quoteUntrustedText', () => {
  test('default: a plain string is quoted as it is', () => {
    expect(quoteUntrustedText('gpt-4o-mini')).toBe('"gpt-4o-mini"')
  })

  test("the hostile modelId stays on one line, its newline and override written out, its markup as text", () => {
    const quoted = quoteUntrustedText(hostileModelId)
    expect(quoted).toBe('"<img src=x onerror=alert(1)>\\n\\u202eSeller: 0x0000000000000000000000000000000000000000"')
    expect(quoted).not.toMatch(/[\n\u202e]/)
  })

  test('a quote or a backslash cannot end the quote', () => {
    expect(quoteUntrustedText('a"b\\c')).toBe('"a\\"b\\\\c"')
  })

  test.each(escapes)('%j is written %s', (character, escape) => {
    expect(quoteUntrustedText(`a${character}b`)).toBe(`"a${escape}b"`)
  })

  test('letters, symbols and emoji of any script stay as they are', () => {
    const text = 'モデル – é, ש, 🙂, 👍🏽'
    expect(quoteUntrustedText(text)).toBe(`"${text}"`)
  })

  test('the quote is a JSON string of the same text', () => {
    for (const text of [hostileModelId, ...escapes.map(([character]) => `x${character}y`)]) {
      expect(JSON.parse(quoteUntrustedText(text))).toBe(text)
    }
  })
})

describe('escapeControlCharacters', () => {
  test('default: text without such characters is returned unchanged', () => {
    expect(escapeControlCharacters('Model: gpt-4o-mini')).toBe('Model: gpt-4o-mini')
  })

  test('JSON text keeps its meaning: every string in it parses back to what was written', () => {
    const value = { modelId: hostileModelId, outputs: escapes.map(([character]) => `x${character}y`) }
    const text = escapeControlCharacters(JSON.stringify(value))
    expect(text).not.toMatch(/[\u0085\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/)
    expect(JSON.parse(text)).toEqual(value)
  })
})
