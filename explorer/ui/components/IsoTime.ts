import { html } from '../html.ts'
import { Time } from './Time.ts'

/** An ISO 8601 instant (the TEE verdict's times) shown as Time shows a chain's unix seconds. */
export function IsoTime({ iso }: { iso: string }) {
  return html`<${Time} seconds=${String(Math.floor(Date.parse(iso) / 1000))} />`
}
