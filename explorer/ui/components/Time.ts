import { html } from '../html.ts'

/** A unix time (seconds) in the reader's locale, with the UTC instant in its title. */
export function Time({ seconds }: { seconds: string }) {
  const date = new Date(Number(seconds) * 1000)
  return html`<time datetime=${date.toISOString()} title=${date.toISOString()}>${date.toLocaleString()}</time>`
}
