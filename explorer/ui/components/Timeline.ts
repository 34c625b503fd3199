import type { JobEvent } from '../../../contract/job.ts'
import { html } from '../html.ts'
import { ChainLink } from './ChainLink.ts'
import { Time } from './Time.ts'

/** A job's on-chain events, oldest first, each with its block, time and transaction. */
export function Timeline({ events }: { events: readonly JobEvent[] }) {
  return html`<ol class="timeline" aria-label="On-chain events">
    ${events.map(
      (event) => html`<li key=${`${event.blockNumber}-${event.logIndex}`} data-event=${event.event}>
        <strong>${event.event}</strong>
        <span>block <${ChainLink} kind="block" value=${event.blockNumber} /></span>
        <span><${Time} seconds=${event.timestamp} /></span>
        <span>tx <${ChainLink} kind="tx" value=${event.transactionHash} /></span>
      </li>`,
    )}
  </ol>`
}
