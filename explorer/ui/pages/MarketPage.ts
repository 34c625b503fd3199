import type { JobList, ServiceList } from '../../../contract/lists.ts'
import type { Stats } from '../../../contract/stats.ts'
import { client } from '../client.ts'
import { JobsTable } from '../components/JobsTable.ts'
import { Problem } from '../components/Problem.ts'
import { ServicesTable } from '../components/ServicesTable.ts'
import { StatsCards } from '../components/StatsCards.ts'
import { html } from '../html.ts'
import { useApi } from '../useApi.ts'
import { useServiceHistories } from '../useServiceHistories.ts'

/** How many of the newest jobs the market page follows. */
const newestJobs = 20
/** Stats and newest jobs are read again this often; unchanged answers are 304s with no body. */
const pollMs = 2_000

/** The market: its counters, every service, and the newest jobs as they happen. */
export function MarketPage() {
  const stats = useApi<Stats>('stats', (extraHeaders) => client.stats.getStats({ extraHeaders }), { pollMs })
  const services = useApi<ServiceList>('services', (extraHeaders) => client.services.listServices({ extraHeaders }), { pollMs })
  const jobs = useApi<JobList>(
    'jobs',
    (extraHeaders) => client.jobs.listJobs({ query: { limit: newestJobs }, extraHeaders }),
    { pollMs },
  )
  const histories = useServiceHistories(services.status === 'ready' ? services.data.services : undefined)
  return html`<section>
      <h1>Market</h1>
      ${stats.status === 'ready' ? html`<${StatsCards} stats=${stats.data} />` : html`<${Problem} state=${stats} />`}
    </section>
    <section>
      <h2>Services</h2>
      ${services.status === 'ready'
        ? html`<${ServicesTable} services=${services.data.services} histories=${histories} label="Services" />`
        : html`<${Problem} state=${services} />`}
    </section>
    <section>
      <h2>Newest jobs <span class="live" title=${`Read again every ${pollMs / 1000} s`}>live</span></h2>
      ${jobs.status === 'ready' ? html`<${JobsTable} jobs=${jobs.data.jobs} label="Newest jobs" />` : html`<${Problem} state=${jobs} />`}
    </section>`
}
