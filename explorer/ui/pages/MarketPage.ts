import type { ServiceList } from '../../../contract/lists.ts'
import type { Stats } from '../../../contract/stats.ts'
import { client } from '../client.ts'
import { LiveBadge } from '../components/LiveBadge.ts'
import { PagedJobs } from '../components/PagedJobs.ts'
import { Problem } from '../components/Problem.ts'
import { ServicesTable } from '../components/ServicesTable.ts'
import { StatsCards } from '../components/StatsCards.ts'
import { html } from '../html.ts'
import { useApi } from '../useApi.ts'
import { useFeed } from '../useFeed.ts'
import { useServiceHistories } from '../useServiceHistories.ts'
import { useTeeVerdicts } from '../useTeeVerdicts.ts'
import { withRecord } from '../withRecord.ts'

/** Without the feed, stats, services and the jobs shown are read again this often; unchanged answers are 304s with no body. */
const pollMs = 2_000

/** The market: its counters, every service, and the newest jobs as they happen. */
export function MarketPage() {
  const feed = useFeed({})
  // The counters are not in any event: each change is a reason to read them again.
  const stats = useApi<Stats>('stats', (extraHeaders) => client.stats.getStats({ extraHeaders }), { pollMs, feed, follow: () => 'reload' })
  const services = useApi<ServiceList>('services', (extraHeaders) => client.services.listServices({ extraHeaders }), {
    pollMs,
    feed,
    follow: ({ type, data }, state) => {
      if (type !== 'service') return undefined
      if (state.status !== 'ready') return 'reload'
      const list = withRecord(state.data.services, { id: data.serviceId, record: data.service, idOf: ({ serviceId }) => serviceId, newestFirst: false })
      return { status: 'ready', data: { count: list.length, services: list } }
    },
  })
  const histories = useServiceHistories(services.status === 'ready' ? services.data.services : undefined)
  const verdicts = useTeeVerdicts()
  return html`<section>
      <h1>Market</h1>
      ${stats.status === 'ready' ? html`<${StatsCards} stats=${stats.data} />` : html`<${Problem} state=${stats} />`}
    </section>
    <section>
      <h2>Services</h2>
      ${services.status === 'ready'
        ? html`<${ServicesTable} services=${services.data.services} histories=${histories} verdicts=${verdicts} label="Services" />`
        : html`<${Problem} state=${services} />`}
    </section>
    <section>
      <h2>Jobs <${LiveBadge} feed=${feed} /></h2>
      <${PagedJobs} filter=${{}} label="Jobs" pollMs=${pollMs} feed=${feed} />
    </section>`
}
