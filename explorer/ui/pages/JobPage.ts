import { hexToString } from 'viem'
import { disputeEventNames, type JobDispute } from '../../../contract/disputeEvent.ts'
import type { JobDetail } from '../../../contract/job.ts'
import type { Service } from '../../../contract/service.ts'
import type { ServiceEventList } from '../../../contract/serviceEvent.ts'
import { client } from '../client.ts'
import { AddressLink } from '../components/AddressLink.ts'
import { LiveBadge } from '../components/LiveBadge.ts'
import { Payouts } from '../components/Payouts.ts'
import { Problem } from '../components/Problem.ts'
import { SellerText } from '../components/SellerText.ts'
import { StateBadge } from '../components/StateBadge.ts'
import { Time } from '../components/Time.ts'
import { Timeline } from '../components/Timeline.ts'
import { TokenAmount } from '../components/TokenAmount.ts'
import { VerifyAttestation } from '../components/VerifyAttestation.ts'
import { html } from '../html.ts'
import { useApi } from '../useApi.ts'
import { useFeed } from '../useFeed.ts'

/** A job changes state while it is looked at (settlement, expiry, dispute): without the feed, read it again this often. */
const pollMs = 2_000

/** One job: its state and history, its amounts, its attestation and the check of its signer. */
export function JobPage({ jobId }: { jobId: string }) {
  const feed = useFeed({ jobs: jobId })
  const job = useApi<JobDetail>(`job ${jobId}`, (extraHeaders) => client.jobs.getJob({ params: { id: jobId }, extraHeaders }), {
    pollMs,
    feed,
    // The event holds the job as GET /v1/jobs/:id serves it; a removed one is REST's 404 to tell.
    follow: ({ type, data }) => (type !== 'job' || data.jobId !== jobId ? undefined : data.job === null ? 'reload' : { status: 'ready', data: data.job }),
  })
  const serviceId = job.status === 'ready' ? job.data.serviceId : undefined
  const service = useApi<Service>(`service ${serviceId}`, async (extraHeaders) =>
    serviceId === undefined ? pending : client.services.getService({ params: { id: serviceId }, extraHeaders }),
  )
  const history = useApi<ServiceEventList>(`history ${serviceId}`, async (extraHeaders) =>
    serviceId === undefined ? pending : client.services.getServiceEvents({ params: { id: serviceId }, extraHeaders }),
  )
  // Read once the job has a dispute event, and again with each new one (arbitration adds them).
  const disputeEvents = job.status === 'ready' ? job.data.events.filter(({ event }) => (disputeEventNames as readonly string[]).includes(event)).length : 0
  const dispute = useApi<JobDispute>(`dispute ${jobId} ${disputeEvents}`, async (extraHeaders) =>
    disputeEvents === 0 ? pending : client.jobs.getJobDispute({ params: { id: jobId }, extraHeaders }),
  )
  if (job.status !== 'ready') return html`<h1>Job #${jobId}</h1><${Problem} state=${job} />`
  const data = job.data
  return html`<h1>Job #${data.jobId} <span data-field="state"><${StateBadge} name=${data.stateName} /></span> <${LiveBadge} feed=${feed} /></h1>
    <section>
      <dl class="record" aria-label="Job">
        <dt>State</dt><dd data-field="state-number">${data.state} (${data.stateName})</dd>
        <dt>Service</dt><dd><a href=${`/services/${data.serviceId}`}>#${data.serviceId}</a>${service.status === 'ready' ? html` · <span data-field="model"><${SellerText} text=${service.data.modelId} /></span>` : ''}</dd>
        <dt>Seller</dt><dd><${AddressLink} address=${data.seller} page="sellers" /></dd>
        <dt>Buyer</dt><dd><${AddressLink} address=${data.buyer} page="buyers" /></dd>
        <dt>Paid into escrow by the buyer</dt><dd data-field="amount"><${TokenAmount} wei=${data.amount} /></dd>
        <dt>Protocol fee (5 %, kept on settlement)</dt><dd data-field="fee"><${TokenAmount} wei=${data.protocolFee} /></dd>
        <dt>Created</dt><dd data-field="created"><${Time} seconds=${data.createdAt} /></dd>
        <dt>Expires</dt><dd data-field="expires"><${Time} seconds=${data.timeout} /></dd>
        <dt>Input commitment</dt><dd class="mono break">${data.inputCommitment}</dd>
      </dl>
    </section>
    <section>
      <h2>Payouts</h2>
      <${Payouts} job=${data} dispute=${disputeEvents === 0 ? undefined : dispute} />
    </section>
    <section>
      <h2>Timeline</h2>
      <${Timeline} events=${data.events} />
    </section>
    <section>
      <h2>Attestation</h2>
      ${data.attestationText === undefined ? null : html`<${Attestation} job=${data} />`}
      ${service.status === 'ready' && history.status === 'ready'
        ? html`<${VerifyAttestation} job=${data} service=${service.data} history=${history.data.events} />`
        : html`<${Problem} state=${service.status === 'ready' ? history : service} />`}
    </section>`
}

/** Stands in for a read that waits on another: a key without data never asks the server. */
const pending = new Promise<never>(() => {})

function Attestation({ job }: { job: JobDetail }) {
  const fields = job.attestation
  return html`<dl class="record" aria-label="Attestation">
    ${fields === null || fields === undefined
      ? html`<dt>Parsed</dt><dd>The text does not parse as the five-field format.</dd>`
      : html`<dt>Content hash</dt><dd class="mono break">${fields.contentHash}</dd>
          <dt>Usage hash</dt><dd class="mono break">${fields.usageHash}</dd>
          <dt>Provider</dt><dd data-field="provider"><${SellerText} text=${fields.providerIdentity} /> (<${SellerText} text=${fields.providerType} />)</dd>
          <dt>TLS certificate</dt><dd class="mono break">${fields.tlsCertFingerprint}</dd>`}
    <dt>Output root hash</dt><dd class="mono break">${job.outputRootHash}</dd>
    <dt>Chat id</dt><dd class="mono break">${job.chatId}</dd>
    <dt>Text</dt><dd class="mono break" data-field="attestation-text"><${SellerText} text=${hexToString(job.attestationText as `0x${string}`)} /></dd>
    <dt>Signature</dt><dd class="mono break" data-field="signature">${job.attestationSignature}</dd>
  </dl>`
}
