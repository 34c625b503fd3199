import type { Job } from '../../../contract/job.ts'
import { html } from '../html.ts'
import { AddressLink } from './AddressLink.ts'
import { StateBadge } from './StateBadge.ts'
import { Time } from './Time.ts'
import { TokenAmount } from './TokenAmount.ts'

export type JobsTableProps = {
  jobs: readonly Job[]
  label: string
  empty?: string
  /** The other party's column: a buyer's own jobs show whom they bought from instead of themselves. */
  party?: 'buyer' | 'seller'
}

/** Jobs, one row each, as the API lists them (newest first). */
export function JobsTable({ jobs, label, empty = 'No jobs yet.', party = 'buyer' }: JobsTableProps) {
  if (jobs.length === 0) return html`<p class="muted" data-empty=${label}>${empty}</p>`
  return html`<div class="table-wrap">
    <table aria-label=${label} data-table="jobs">
      <thead><tr><th>Job</th><th>Service</th><th>State</th><th class="num">Amount</th><th class="wide">${party === 'buyer' ? 'Buyer' : 'Seller'}</th><th class="wide">Created</th></tr></thead>
      <tbody>
        ${jobs.map(
          (job) => html`<tr key=${job.jobId} data-job-id=${job.jobId}>
            <td><a href=${`/jobs/${job.jobId}`}>#${job.jobId}</a></td>
            <td><a href=${`/services/${job.serviceId}`}>#${job.serviceId}</a></td>
            <td data-field="state"><${StateBadge} name=${job.stateName} /></td>
            <td class="num" data-field="amount"><${TokenAmount} wei=${job.amount} /></td>
            <td class="wide" data-field=${party}><${AddressLink} address=${job[party]} page=${party === 'buyer' ? 'buyers' : 'sellers'} /></td>
            <td class="wide"><${Time} seconds=${job.createdAt} /></td>
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`
}
