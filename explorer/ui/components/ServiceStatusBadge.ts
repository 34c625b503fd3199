import { html } from '../html.ts'
import type { ServiceStatus } from './serviceStatusOf.ts'

const titles: Record<ServiceStatus, string> = {
  active: 'Takes new jobs.',
  inactive: 'Set inactive by its seller (updateService): takes no new jobs until the seller sets it active again.',
  delisted: 'Delisted by its seller (delistService): takes no new jobs.',
}

/** A service's status; "not active" while it is unknown whether the seller delisted it or set it inactive. */
export function ServiceStatusBadge({ status }: { status: ServiceStatus | undefined }) {
  if (status === undefined) return html`<span class="badge off" title="Takes no new jobs.">not active</span>`
  return html`<span class=${status === 'active' ? 'badge ok' : 'badge off'} title=${titles[status]} data-status=${status}>${status}</span>`
}
