import { html } from '../html.ts'

/** A job state by name, coloured by outcome. */
export function StateBadge({ name }: { name: string }) {
  return html`<span class=${`badge state-${name.toLowerCase()}`}>${name}</span>`
}
