import type { ServiceEvent } from '../../../contract/serviceEvent.ts'
import { html } from '../html.ts'
import { ChainLink } from './ChainLink.ts'
import { Time } from './Time.ts'
import { TokenAmount } from './TokenAmount.ts'

/** What one registry event did, in a few words. */
function change(event: ServiceEvent) {
  switch (event.event) {
    case 'ServiceRegistered':
      return html`registered with signing key <span class="mono break">${event.signingAddress}</span>`
    case 'SigningAddressRotated':
      return html`signing key rotated from <span class="mono break">${event.previousSigningAddress}</span> to <span class="mono break">${event.signingAddress}</span>`
    case 'ServiceUpdated':
      return html`price set to <${TokenAmount} wei=${event.pricePerCall ?? '0'} />, set ${event.active ? 'active' : 'inactive'}`
    case 'ServiceDelisted':
      return 'delisted by the seller'
  }
}

/** The service's registry history, oldest first: its signing keys and what else changed. */
export function KeyHistory({ history }: { history: readonly ServiceEvent[] }) {
  return html`<ol class="timeline" aria-label="Registry history">
    ${history.map(
      (event) => html`<li key=${`${event.blockNumber}-${event.logIndex}`} data-event=${event.event}>
        <strong>${event.event}</strong>
        <span>${change(event)}</span>
        <span>block <${ChainLink} kind="block" value=${event.blockNumber} /> · <${Time} seconds=${event.timestamp} /> · tx <${ChainLink} kind="tx" value=${event.transactionHash} /></span>
      </li>`,
    )}
  </ol>`
}
