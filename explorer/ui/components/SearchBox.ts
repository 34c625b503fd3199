import { useState } from 'preact/hooks'
import { client } from '../client.ts'
import { html } from '../html.ts'
import { navigate } from '../navigate.ts'

type Match = { label: string; path: string }

/**
 * Takes a job id, a service id, an address or a transaction hash. An address that offers a service
 * opens the seller page, any other the buyer page (which links to the seller page all the same);
 * a number opens the job or the service with that id, or offers both when both exist (`job 7` and
 * `service 3` pick one); a transaction hash opens the job or service its market events are about,
 * or offers each when it touched several.
 */
export function SearchBox() {
  const [matches, setMatches] = useState<Match[] | undefined>(undefined)
  const [message, setMessage] = useState<string | undefined>(undefined)
  const search = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault()
    const text = String(new FormData(event.target as HTMLFormElement).get('q') ?? '').trim()
    setMatches(undefined)
    setMessage(undefined)
    if (/^0x[0-9a-fA-F]{40}$/.test(text)) return offer(await addressMatch(text))
    if (/^0x[0-9a-fA-F]{64}$/.test(text)) return offer(await transactionMatches(text))
    const id = /^(?:(job|service)\s*#?\s*)?#?(0|[1-9][0-9]*)$/i.exec(text)
    if (id === null)
      return setMessage('Type a job id, a service id (e.g. 7, job 7, service 3), an address (0x and 40 hex digits) or a transaction hash (0x and 64 hex digits).')
    const kind = id[1]?.toLowerCase()
    const number = id[2] as string
    const [job, service] = await Promise.all([
      kind === 'service' ? undefined : client.jobs.getJob({ params: { id: number } }),
      kind === 'job' ? undefined : client.services.getService({ params: { id: number } }),
    ])
    const found: Match[] = []
    if (job?.status === 200) found.push({ label: `Job #${number}`, path: `/jobs/${number}` })
    if (service?.status === 200) found.push({ label: `Service #${number}`, path: `/services/${number}` })
    offer(found.length === 0 ? `No ${kind ?? 'job or service'} has the id ${number}.` : found)
  }
  /** One match opens its page, several are offered, none is a message saying why. */
  const offer = (found: Match[] | string): void => {
    if (typeof found === 'string') return setMessage(found)
    if (found.length === 1) return navigate((found[0] as Match).path)
    setMatches(found)
  }
  return html`<form class="search" role="search" onSubmit=${search}>
    <input name="q" type="search" placeholder="Job id, service id, address or tx hash" aria-label="Search" autocomplete="off" />
    <button type="submit">Go</button>
    ${message === undefined ? null : html`<p class="search-note" role="status">${message}</p>`}
    ${matches === undefined
      ? null
      : html`<p class="search-note" role="status">${matches.map((match, index) => html`${index > 0 ? ' or ' : ''}<a href=${match.path} onClick=${() => setMatches(undefined)}>${match.label}</a>`)}</p>`}
  </form>`
}

/** The seller page of an address with services (a job's seller always has one), else its buyer page. */
async function addressMatch(address: string): Promise<Match[] | string> {
  const answer = await client.sellers.getSeller({ params: { address }, query: { limit: 1 } })
  if (answer.status !== 200) return `The indexer answered HTTP ${answer.status}.`
  const page = answer.body.services.length > 0 ? 'sellers' : 'buyers'
  return [{ label: address, path: `/${page}/${address}` }]
}

/** The jobs and services whose market events a transaction emitted, or why there are none. */
async function transactionMatches(hash: string): Promise<Match[] | string> {
  const answer = await client.transactions.getTransaction({ params: { hash } })
  if (answer.status === 404) return `The transaction ${hash.slice(0, 10)}…${hash.slice(-6)} emitted no event of a job or a service that the indexer holds.`
  if (answer.status !== 200) return `The indexer answered HTTP ${answer.status}.`
  const found = new Map<string, Match>()
  for (const { jobId, serviceId } of answer.body.events) {
    if (jobId !== undefined) found.set(`/jobs/${jobId}`, { label: `Job #${jobId}`, path: `/jobs/${jobId}` })
    if (serviceId !== undefined) found.set(`/services/${serviceId}`, { label: `Service #${serviceId}`, path: `/services/${serviceId}` })
  }
  return found.size === 0 ? `The transaction ${hash.slice(0, 10)}…${hash.slice(-6)} names no job or service.` : [...found.values()]
}
