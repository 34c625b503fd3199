import type { Buyer } from '../../../contract/buyer.ts'
import { client } from '../client.ts'
import { PagedJobs } from '../components/PagedJobs.ts'
import { Problem } from '../components/Problem.ts'
import { html } from '../html.ts'
import { useApi } from '../useApi.ts'

/** One buyer: the jobs the address paid for, a page at a time. */
export function BuyerPage({ address }: { address: string }) {
  // One job is enough to know the address and whether it bought anything; the table pages on its own.
  const buyer = useApi<Buyer>(`buyer ${address}`, (extraHeaders) => client.buyers.getBuyer({ params: { address }, query: { limit: 1 }, extraHeaders }))
  if (buyer.status !== 'ready') return html`<h1>Buyer</h1><${Problem} state=${buyer} />`
  return html`<h1>Buyer <span class="mono break">${buyer.data.buyer}</span></h1>
    <p class="muted small">Also see <a href=${`/sellers/${buyer.data.buyer}`}>the address as a seller</a>.</p>
    <section>
      <h2>Jobs paid for</h2>
      ${buyer.data.jobs.length === 0
        ? html`<p class="muted" data-empty="Jobs of the buyer">This address has paid for no job.</p>`
        : html`<${PagedJobs} filter=${{ buyer: buyer.data.buyer }} label="Jobs of the buyer" party="seller" />`}
    </section>`
}
