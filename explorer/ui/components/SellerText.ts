import { controlCharacters, escapeControlCharacters } from '../../../contract/escapeControlCharacters.ts'
import { html } from '../html.ts'

/**
 * A string a seller wrote (modelId, providerIdentity, an attestation's text) as data, not layout:
 * isolated in a `<bdi>` so it cannot reorder the text around it, and with every control, bidi or
 * invisible character shown as its escape (`\n`, `\u202e`) in a muted style instead of acting (an
 * override would turn "Seller: 0x…" around inside it), so a reader sees what is there. Preact
 * escapes the markup.
 */
export function SellerText({ text }: { text: string }) {
  const parts: unknown[] = []
  let from = 0
  for (const match of text.matchAll(controlCharacters)) {
    if (match.index > from) parts.push(text.slice(from, match.index))
    const character = match[0]
    parts.push(html`<span class="escaped mono muted" title=${codePointName(character)}>${escapeControlCharacters(character)}</span>`)
    from = match.index + character.length
  }
  if (from < text.length) parts.push(text.slice(from))
  return html`<bdi class="seller-text">${parts}</bdi>`
}

/** "U+202E", as character tables name it. */
function codePointName(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`
}
