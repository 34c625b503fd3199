import type { Job } from '../../../contract/job.ts'
import type { Seller } from '../../../contract/seller.ts'
import { client } from '../client.ts'
import { LiveBadge } from '../components/LiveBadge.ts'
import { PagedJobs } from '../components/PagedJobs.ts'
import { Problem } from '../components/Problem.ts'
import { ServicesTable } from '../components/ServicesTable.ts'
import { TokenAmount } from '../components/TokenAmount.ts'
import { html } from '../html.ts'
import { useApi, type ApiState } from '../useApi.ts'
import { useFeed, type FeedRecord } from '../useFeed.ts'
import { useServiceHistories } from '../useServiceHistories.ts'
import { useTeeVerdicts } from '../useTeeVerdicts.ts'
import { withRecord } from '../withRecord.ts'

const paidStates = new Set<Job['stateName']>(['Settled', 'Disputed', 'Slashed'])

/** One seller: their services and jobs, with totals over them. */
export function SellerPage({ address }: { address: string }) {
  const feed = useFeed({ seller: address })
  const seller = useApi<Seller>(`seller ${address}`, (extraHeaders) => client.sellers.getSeller({ params: { address }, extraHeaders }), { feed, follow: followSeller })
  const histories = useServiceHistories(seller.status === 'ready' ? seller.data.services : undefined)
  const verdicts = useTeeVerdicts()
  if (seller.status !== 'ready') return html`<h1>Seller</h1><${Problem} state=${seller} />`
  const { services, jobs } = seller.data
  const settled = jobs.filter((job) => job.stateName === 'Settled')
  // Disputed and Slashed jobs were settled first, and a dispute takes nothing back from the seller.
  const paid = jobs.filter((job) => paidStates.has(job.stateName))
  const escrowed = jobs.reduce((sum, job) => sum + BigInt(job.amount), 0n)
  const paidOut = paid.reduce((sum, job) => sum + BigInt(job.amount) - BigInt(job.protocolFee), 0n)
  const of = seller.data.nextCursor === null ? 'all jobs' : `the newest ${jobs.length.toLocaleString('en-US')} jobs`
  return html`<h1>Seller <span class="mono break">${seller.data.seller}</span></h1>
    <p class="muted small">Also see <a href=${`/buyers/${seller.data.seller}`}>the jobs this address paid for</a>.</p>
    <div class="cards" aria-label="Seller totals">
      <div class="card" data-stat="services"><div class="value">${services.length}</div><div class="label">Services registered (active or not)</div></div>
      <div class="card" data-stat="jobs"><div class="value">${jobs.length}</div><div class="label">Jobs bought from the seller${seller.data.nextCursor === null ? '' : ' (newest only)'}</div></div>
      <div class="card" data-stat="settled"><div class="value">${settled.length}</div><div class="label">Jobs in state Settled now (${of})</div></div>
      <div class="card" data-stat="escrowed"><div class="value"><${TokenAmount} wei=${String(escrowed)} /></div><div class="label">Paid into escrow by buyers, refunds included (${of})</div></div>
      <div class="card" data-stat="paid"><div class="value"><${TokenAmount} wei=${String(paidOut)} /></div><div class="label">Paid to the seller after fees, settled jobs disputed later included (${of})</div></div>
    </div>
    <section>
      <h2>Services</h2>
      <${ServicesTable} services=${services} histories=${histories} verdicts=${verdicts} label="Services of the seller" />
    </section>
    <section>
      <h2>Jobs <${LiveBadge} feed=${feed} /></h2>
      <${PagedJobs} filter=${{ seller: seller.data.seller }} label="Jobs of the seller" feed=${feed} />
    </section>`
}

/**
 * A seller's services and jobs, newest first, with one record of the seller's stream put in; read
 * again when that would change which jobs a partial list (`nextCursor`) holds.
 */
function followSeller({ type, data }: FeedRecord, state: ApiState<Seller>): ApiState<Seller> | 'reload' {
  if (state.status !== 'ready') return 'reload'
  const seller = state.data
  if (type === 'service') return { status: 'ready', data: { ...seller, services: withRecord(seller.services, { id: data.serviceId, record: data.service, idOf: ({ serviceId }) => serviceId, newestFirst: true }) } }
  const listed = seller.jobs.some(({ jobId }) => jobId === data.jobId)
  if (seller.nextCursor !== null && (data.job === null || !listed)) return 'reload'
  return { status: 'ready', data: { ...seller, jobs: withRecord(seller.jobs, { id: data.jobId, record: data.job, idOf: ({ jobId }) => jobId, newestFirst: true }) } }
}
