import type { ServiceList } from '../../../contract/lists.ts'
import type { Stats } from '../../../contract/stats.ts'
import { client } from '../client.ts'
import { PagedJobs } from '../components/PagedJobs.ts'
import { Problem } from '../components/Problem.ts'
import { ServicesTable } from '../components/ServicesTable.ts'
import { StatsCards } from '../components/StatsCards.ts'
import { html } from '../html.ts'
import { useApi } from '../useApi.ts'
import { useServiceHistories } from '../useServiceHistories.ts'
import { useTeeVerdicts } from '../useTeeVerdicts.ts'

/** Stats and the jobs shown are read again this often; unchanged answers are 304s with no body. */
const pollMs = 2_000

/** The market: its counters, every service, and the newest jobs as they happen. */
export function MarketPage() {
  const stats = useApi<Stats>('stats', (extraHeaders) => client.stats.getStats({ extraHeaders }), { pollMs })
  const services = useApi<ServiceList>('services', (extraHeaders) => client.services.listServices({ extraHeaders }), { pollMs })
  const histories = useServiceHistories(services.status === 'ready' ? services.data.services : undefined)
  const verdicts = useTeeVerdicts(pollMs)
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
      <h2>Jobs <span class="live" title=${`Read again every ${pollMs / 1000} s`}>live</span></h2>
      <${PagedJobs} filter=${{}} label="Jobs" pollMs=${pollMs} />
    </section>`
}
