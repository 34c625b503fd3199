import type { DisputeEvent, DisputeEventName, JobDispute } from '../../../contract/disputeEvent.ts'
import type { JobDetail, JobEvent } from '../../../contract/job.ts'
import { html } from '../html.ts'
import type { ApiState } from '../useApi.ts'
import { AddressLink } from './AddressLink.ts'
import { ChainLink } from './ChainLink.ts'
import { Problem } from './Problem.ts'
import { Time } from './Time.ts'
import { TokenAmount } from './TokenAmount.ts'

/** When and in which transaction a payout happened. */
function At({ event }: { event: Pick<JobEvent, 'timestamp' | 'transactionHash'> }) {
  return html`<span class="muted small"><${Time} seconds=${event.timestamp} /> · tx <${ChainLink} kind="tx" value=${event.transactionHash} /></span>`
}

export type PayoutsProps = {
  job: JobDetail
  /** The job's dispute events with their arguments (GET /v1/jobs/:id/dispute), read only once the job has one. */
  dispute: ApiState<JobDispute> | undefined
}

/**
 * What each payout moved, as the job's events say: JobSettled pays the seller the amount less the
 * fee (the escrow keeps the fee for the treasury), JobExpired refunds the whole amount to the buyer.
 * A dispute moves no escrow: the arbiter holds the disputer's bond (DisputeOpened) and, once it
 * arbitrates, pays it out when the dispute fails (DisputeFailed) or splits the service's bond when
 * it slashes (Slashed); the amounts are those events' arguments.
 */
export function Payouts({ job, dispute }: PayoutsProps) {
  const find = (name: JobEvent['event']) => job.events.find(({ event }) => event === name)
  const settled = find('JobSettled')
  const expired = find('JobExpired')
  const rows = []
  if (settled !== undefined)
    rows.push(html`<li data-payout="seller">Paid to the seller <${AddressLink} address=${job.seller} page="sellers" />: <strong data-field="paid-to-seller"><${TokenAmount} wei=${String(BigInt(job.amount) - BigInt(job.protocolFee))} /></strong> <${At} event=${settled} /></li>
      <li data-payout="fee">Protocol fee kept by the escrow for the treasury: <strong data-field="paid-fee"><${TokenAmount} wei=${job.protocolFee} /></strong> <${At} event=${settled} /></li>`)
  if (expired !== undefined)
    rows.push(html`<li data-payout="refund">Refunded to the buyer <${AddressLink} address=${job.buyer} page="buyers" /> on expiry: <strong data-field="refunded"><${TokenAmount} wei=${job.amount} /></strong> <${At} event=${expired} /></li>`)
  if (dispute !== undefined)
    rows.push(dispute.status === 'ready' ? html`<${DisputePayouts} events=${dispute.data.events} />` : html`<li data-payout="dispute"><${Problem} state=${dispute} /></li>`)
  if (rows.length === 0)
    return html`<p data-payout="none">Nothing has left the escrow: <${TokenAmount} wei=${job.amount} /> is held until the seller settles, or until the buyer reclaims it after <${Time} seconds=${job.timeout} />.</p>`
  return html`<ul class="payouts" aria-label="Payouts">${rows}</ul>`
}

/** The arbiter's side of a dispute: the bond it took, and how arbitration paid it and the service's bond out. */
function DisputePayouts({ events }: { events: readonly DisputeEvent[] }) {
  const find = (name: DisputeEventName) => events.find(({ event }) => event === name)
  const opened = find('DisputeOpened')
  const failed = find('DisputeFailed')
  const slashed = find('Slashed')
  return html`${opened === undefined
      ? null
      : html`<li data-payout="dispute">Disputed by <span data-field="disputer"><${AddressLink} address=${opened.disputer} page="buyers" /></span>, who posted a bond of <strong data-field="dispute-bond"><${TokenAmount} wei=${opened.bond} /></strong> with the arbiter; the seller's payout stands ${failed === undefined && slashed === undefined ? '(not arbitrated yet)' : ''} <${At} event=${opened} /></li>`}
    ${failed === undefined
      ? null
      : html`<li data-payout="dispute-failed">Dispute failed, the attestation still verifies: of the disputer's bond, <strong data-field="failed-to-seller"><${TokenAmount} wei=${failed.toSeller} /></strong> to the seller and <strong data-field="failed-to-treasury"><${TokenAmount} wei=${failed.toTreasury} /></strong> to the treasury <${At} event=${failed} /></li>`}
    ${slashed === undefined
      ? null
      : html`<li data-payout="slash">Slashed, the attestation no longer verifies: the service's bond of <strong data-field="slashed-bond"><${TokenAmount} wei=${slashed.sellerBondSlashed} /></strong> split into <strong data-field="slash-to-disputer"><${TokenAmount} wei=${slashed.toDisputer} /></strong> to the disputer <${AddressLink} address=${slashed.disputer} page="buyers" /> (who also got their bond back), <strong data-field="slash-to-treasury"><${TokenAmount} wei=${slashed.toTreasury} /></strong> to the treasury and <strong data-field="slash-burned"><${TokenAmount} wei=${slashed.burned} /></strong> burned <${At} event=${slashed} /></li>`}`
}
