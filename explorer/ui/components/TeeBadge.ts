import type { TeeVerdict, TeeVerdictName } from '../../../contract/tee.ts'
import { html } from '../html.ts'

/** A sign beside each word, so that the badge reads without its colour (and each colour class has its own border). */
const signs: Record<TeeVerdictName, string> = {
  verified: '✓',
  acknowledged: '◐',
  failed: '✗',
  unreachable: '?',
  none: '–',
}

export type TeeBadgeProps = {
  serviceId: string
  /** The service's verdict; undefined when it has none (yet): "checking". */
  verdict: TeeVerdict | undefined
}

/** A service's TEE verdict, linked to its page, with the verdict's summary as its title. */
export function TeeBadge({ serviceId, verdict }: TeeBadgeProps) {
  const href = `/services/${serviceId}`
  if (verdict === undefined) return html`<a class="badge tee tee-checking" href=${href} title="Not checked yet." data-tee="checking">… checking</a>`
  return html`<a class=${`badge tee tee-${verdict.verdict}`} href=${href} title=${verdict.summary} data-tee=${verdict.verdict}><span aria-hidden="true">${signs[verdict.verdict]}</span> ${verdict.verdict}</a>`
}
