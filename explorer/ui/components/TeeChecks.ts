import type { TeeCheck } from '../../../contract/tee.ts'
import { html } from '../html.ts'
import { SellerText } from './SellerText.ts'

/** Each status with a sign, so that it reads without its colour. */
const shown: Record<TeeCheck['status'], { text: string; className: string }> = {
  pass: { text: '✓ pass', className: 'badge ok' },
  fail: { text: '✗ fail', className: 'badge bad' },
  skip: { text: '– skip', className: 'badge off' },
}

export type TeeChecksProps = {
  /** The indexer's checks, or the browser's own steps. */
  checks: readonly { name: string; status: TeeCheck['status']; reason: string }[]
  label: string
}

/**
 * Checks in order, each with its outcome and reason. A reason may quote what a provider serves
 * (its URL, its compose file's errors): it is shown as a seller's text is. On a phone the reason
 * takes a line of its own below the check's name and outcome, at the card's full width.
 */
export function TeeChecks({ checks, label }: TeeChecksProps) {
  return html`<div class="table-wrap">
    <table class="stack" aria-label=${label} data-table="tee-checks">
      <thead><tr><th>Check</th><th>Outcome</th><th>Reason</th></tr></thead>
      <tbody>
        ${checks.map(
          (check) => html`<tr key=${check.name} data-check=${check.name} data-status=${check.status}>
            <td class="lead mono">${check.name}</td>
            <td data-field="status"><span class=${shown[check.status].className}>${shown[check.status].text}</span></td>
            <td class="wrap detail" data-label="" data-field="reason"><${SellerText} text=${check.reason} /></td>
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`
}
