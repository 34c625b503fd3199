import type { JobDetail, JobEvent } from '../../../contract/job.ts'
import { html } from '../html.ts'
import { AddressLink } from './AddressLink.ts'
import { ChainLink } from './ChainLink.ts'
import { Time } from './Time.ts'
import { TokenAmount } from './TokenAmount.ts'

/** When and in which transaction a payout happened. */
function At({ event }: { event: JobEvent }) {
  return html`<span class="muted small"><${Time} seconds=${event.timestamp} /> · tx <${ChainLink} kind="tx" value=${event.transactionHash} /></span>`
}

/**
 * What left the escrow, read from the job's events: JobSettled pays the seller the amount less the
 * fee (the escrow keeps the fee for the treasury), JobExpired refunds the whole amount to the buyer.
 * A dispute moves no escrow: the arbiter pays from the disputer's bond or the service's (the shares
 * are devnet/contracts/Arbiter.sol's). The API gives an event's name, block and transaction but not
 * its arguments, so the disputer and the amounts of a dispute are left to its transaction.
 */
export function Payouts({ job }: { job: JobDetail }) {
  const find = (name: JobEvent['event']) => job.events.find(({ event }) => event === name)
  const settled = find('JobSettled')
  const expired = find('JobExpired')
  const disputed = find('JobDisputed')
  const failed = find('DisputeFailed')
  const slashed = find('JobSlashed')
  const rows = []
  if (settled !== undefined)
    rows.push(html`<li data-payout="seller">Paid to the seller <${AddressLink} address=${job.seller} page="sellers" />: <strong data-field="paid-to-seller"><${TokenAmount} wei=${String(BigInt(job.amount) - BigInt(job.protocolFee))} /></strong> <${At} event=${settled} /></li>
      <li data-payout="fee">Protocol fee kept by the escrow for the treasury: <strong data-field="paid-fee"><${TokenAmount} wei=${job.protocolFee} /></strong> <${At} event=${settled} /></li>`)
  if (expired !== undefined)
    rows.push(html`<li data-payout="refund">Refunded to the buyer <${AddressLink} address=${job.buyer} page="buyers" /> on expiry: <strong data-field="refunded"><${TokenAmount} wei=${job.amount} /></strong> <${At} event=${expired} /></li>`)
  if (disputed !== undefined)
    rows.push(html`<li data-payout="dispute">Disputed: the disputer's bond went to the arbiter; the seller's payout stands (who disputed: the caller of <code>dispute</code> in this transaction) <${At} event=${disputed} /></li>`)
  if (failed !== undefined)
    rows.push(html`<li data-payout="dispute-failed">Dispute failed, the attestation still verifies: the arbiter paid 90 % of the disputer's bond to the seller and 10 % to the treasury <${At} event=${failed} /></li>`)
  if (slashed !== undefined)
    rows.push(html`<li data-payout="slash">Slashed, the attestation no longer verifies: the arbiter split the service's bond, 70 % to the disputer (with their bond back), 20 % to the treasury, the rest burned <${At} event=${slashed} /></li>`)
  if (rows.length === 0)
    return html`<p data-payout="none">Nothing has left the escrow: <${TokenAmount} wei=${job.amount} /> is held until the seller settles, or until the buyer reclaims it after <${Time} seconds=${job.timeout} />.</p>`
  return html`<ul class="payouts" aria-label="Payouts">${rows}</ul>`
}
