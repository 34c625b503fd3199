import { useState } from 'preact/hooks'
import { jobStateNames } from '../../../contract/job.ts'
import type { JobsQuery } from '../../../contract/jobsQuery.ts'
import type { JobList } from '../../../contract/lists.ts'
import { client } from '../client.ts'
import { html } from '../html.ts'
import { useApi } from '../useApi.ts'
import type { Feed } from '../useFeed.ts'
import { JobsTable, type JobsTableProps } from './JobsTable.ts'
import { Problem } from './Problem.ts'

/** Which jobs a table lists: all of them, or those of one buyer, seller or service. */
export type JobsFilter = Pick<JobsQuery, 'buyer' | 'seller' | 'serviceId'>

export type PagedJobsProps = Pick<JobsTableProps, 'label' | 'party'> & {
  filter: JobsFilter
  /** Read the page shown again this often (milliseconds), while there is no live feed; a cursor stays valid while jobs arrive. */
  pollMs?: number
  /** The page's stream, with the same filter: its job events update the rows shown. */
  feed?: Feed
}

const pageSizes = [10, 20, 50, 100]
const defaultPageSize = 20

/**
 * Jobs a page at a time, newest first, through `GET /v1/jobs` with the API's own `state` filter and
 * cursor. The cursors of the pages already seen are kept so that "Newer" goes back without a cursor
 * the API would have to give backwards.
 */
export function PagedJobs({ filter, label, party, pollMs, feed }: PagedJobsProps) {
  const [state, setState] = useState('')
  const [limit, setLimit] = useState(defaultPageSize)
  const [cursors, setCursors] = useState<string[]>([])
  const cursor = cursors.at(-1)
  const query = { ...filter, limit, ...(state === '' ? {} : { state }), ...(cursor === undefined ? {} : { cursor }) }
  const jobs = useApi<JobList>(`jobs ${JSON.stringify(query)}`, (extraHeaders) => client.jobs.listJobs({ query, extraHeaders }), {
    pollMs,
    feed,
    follow: ({ type, data }, shown) => {
      if (type !== 'job') return undefined
      if (shown.status !== 'ready') return 'reload'
      const { jobId, job, change } = data
      const listed = shown.data.jobs.some((row) => row.jobId === jobId)
      const fits = job !== null && (state === '' || String(job.state) === state)
      if (listed && fits) return { status: 'ready', data: { ...shown.data, jobs: shown.data.jobs.map((row) => (row.jobId === jobId ? job : row)) } }
      // Which jobs the page holds changes: the API pages them (a new job is the newest, on the first page).
      return listed || (fits && (state !== '' || (change === 'created' && cursor === undefined))) ? 'reload' : undefined
    },
  })
  // A new filter or page size starts again from the newest job: an old cursor belongs to the old query.
  const choose = (set: (value: string) => void) => (event: Event): void => {
    set((event.target as HTMLSelectElement).value)
    setCursors([])
  }
  const nextCursor = jobs.status === 'ready' ? jobs.data.nextCursor : null
  const first = cursors.length * limit + 1
  return html`<div class="pager" aria-label=${`${label}: paging and filter`}>
      <label>State <select name="state" value=${state} onChange=${choose(setState)}>
        <option value="">All states</option>
        ${jobStateNames.map((name, number) => html`<option value=${String(number)}>${name}</option>`)}
      </select></label>
      <label>Per page <select name="limit" value=${String(limit)} onChange=${choose((value) => setLimit(Number(value)))}>
        ${pageSizes.map((size) => html`<option value=${String(size)}>${size}</option>`)}
      </select></label>
      <span class="muted small" data-field="range">${jobs.status === 'ready' && jobs.data.count > 0 ? `jobs ${first}–${first + jobs.data.count - 1}, newest first` : ''}</span>
      <button type="button" data-action="newer" disabled=${cursors.length === 0} onClick=${() => setCursors(cursors.slice(0, -1))}>Newer</button>
      <button type="button" data-action="older" disabled=${nextCursor === null} onClick=${() => nextCursor !== null && setCursors([...cursors, nextCursor])}>Older jobs</button>
    </div>
    ${jobs.status === 'ready' ? html`<${JobsTable} jobs=${jobs.data.jobs} label=${label} party=${party} empty=${state === '' ? 'No jobs yet.' : `No job is ${jobStateNames[Number(state)]} now.`} />` : html`<${Problem} state=${jobs} />`}`
}
