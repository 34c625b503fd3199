import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { hashInlineSources } from '../../server/http/pages/hashInlineSources.ts'

/** The CSP source a browser accepts for this exact text (the oracle: Node's hash, not the code under test). */
const source = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

test('default: each inline script, style element and style attribute, once each', () => {
  const html = `<!doctype html><html><head><style>body{margin:0}</style><script>go()</script></head>
<body><div style="color:red"></div><p style='color:red'>x</p><span style=display:none></span><script>go()</script></body></html>`
  expect(hashInlineSources(html)).toEqual({
    scripts: [source('go()')],
    styles: [source('body{margin:0}')],
    styleAttributes: [source('color:red'), source('display:none')],
  })
})

describe('read as a browser reads it', () => {
  test('a script with src runs a file, not inline text: not hashed', () => {
    expect(hashInlineSources('<script type="module" src="/a.js"></script>').scripts).toEqual([])
  })

  test("markup inside a script's text is text, up to the closing tag", () => {
    const bundle = 'const a = "<style>x{}</style><div style=\\"c\\">"; const b = `<html><body>`'
    expect(hashInlineSources(`<script type="module">${bundle}</script><style>y{}</style>`)).toEqual({
      scripts: [source(bundle)],
      styles: [source('y{}')],
      styleAttributes: [],
    })
  })

  test('comments are skipped', () => {
    expect(hashInlineSources('<!-- <script>old()</script> --><script>now()</script>').scripts).toEqual([source('now()')])
  })

  test('tag names in any case; a ">" inside a quoted attribute does not end the tag', () => {
    expect(hashInlineSources('<SCRIPT data-x="a>b">run()</SCRIPT>').scripts).toEqual([source('run()')])
  })

  test('line breaks are hashed as the parser passes them on (CRLF and CR become LF)', () => {
    expect(hashInlineSources('<script>a()\r\nb()\rc()</script>').scripts).toEqual([source('a()\nb()\nc()')])
  })

  test("a style attribute's character references are hashed decoded", () => {
    expect(hashInlineSources('<i style="font-family:&quot;A&amp;B&quot;"></i>').styleAttributes).toEqual([source('font-family:"A&B"')])
  })

  test('an empty element has the hash of nothing', () => {
    expect(hashInlineSources('<style></style>').styles).toEqual(["'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"])
  })
})
