import { createHash } from 'node:crypto'

/** CSP source expressions (`'sha256-…'`) for what a page runs or applies inline. */
export type HashInlineSourcesReturnType = {
  /** Each inline `<script>` (no `src`): for `script-src`. */
  scripts: string[]
  /** Each `<style>` element: for `style-src`. */
  styles: string[]
  /** Each `style="…"` attribute: for `style-src` with `'unsafe-hashes'`. */
  styleAttributes: string[]
}

/** A start tag, its attributes quoted or not; raw `>` only ends it outside quotes. */
const startTag = /<([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y
const styleAttribute = /(?:^|\s)style\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi
const srcAttribute = /(?:^|\s)src\s*=/i
const entities: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#x27;': "'", '&#39;': "'", '&lt;': '<', '&gt;': '>' }

/**
 * Hashes the inline scripts, style elements and style attributes of a page fixed when the app is
 * built (the Redoc page, which `redocly build-docs --inlineBundle` writes with its bundle inline and
 * its server-rendered styles), so its policy can allow exactly those and nothing injected later.
 * Reads the document the way a browser's tokenizer does where it matters here: comments are
 * skipped, a script's or style's text runs to its closing tag (so markup inside a bundle's strings
 * is never taken for elements), and line breaks are normalized before hashing.
 */
export function hashInlineSources(html: string): HashInlineSourcesReturnType {
  const scripts = new Set<string>()
  const styles = new Set<string>()
  const styleAttributes = new Set<string>()
  let at = 0
  for (;;) {
    const open = html.indexOf('<', at)
    if (open === -1) break
    if (html.startsWith('<!--', open)) {
      const close = html.indexOf('-->', open + 4)
      at = close === -1 ? html.length : close + 3
      continue
    }
    startTag.lastIndex = open
    const tag = startTag.exec(html)
    if (tag === null) {
      at = open + 1
      continue
    }
    const [whole, rawName = '', attributes = ''] = tag
    at = open + whole.length
    for (const [, double, single, bare] of attributes.matchAll(styleAttribute))
      styleAttributes.add(toSource(decodeEntities(double ?? single ?? bare ?? '')))
    const name = rawName.toLowerCase()
    if (name !== 'script' && name !== 'style') continue
    const end = findClosingTag(html, name, at)
    if (name === 'style') styles.add(toSource(html.slice(at, end)))
    else if (!srcAttribute.test(attributes)) scripts.add(toSource(html.slice(at, end)))
    at = end
  }
  return { scripts: [...scripts], styles: [...styles], styleAttributes: [...styleAttributes] }
}

function findClosingTag(html: string, name: string, from: number): number {
  const closing = new RegExp(`</${name}`, 'gi')
  closing.lastIndex = from
  return closing.exec(html)?.index ?? html.length
}

function decodeEntities(value: string): string {
  return value.replace(/&(?:amp|quot|#x27|#39|lt|gt);/g, (entity) => entities[entity] ?? entity)
}

/** The browser hashes the UTF-8 of the text after turning CRLF and CR into LF. */
function toSource(text: string): string {
  const digest = createHash('sha256').update(text.replace(/\r\n?/g, '\n'), 'utf8').digest('base64')
  return `'sha256-${digest}'`
}
