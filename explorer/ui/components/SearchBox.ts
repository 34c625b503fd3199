import { useState } from 'preact/hooks'
import { client } from '../client.ts'
import { html } from '../html.ts'
import { navigate } from '../navigate.ts'

type Match = { label: string; path: string }

/**
 * Takes a job id, a service id or an address. An address opens the seller page; a number opens the
 * job or the service with that id, or offers both when both exist. `job 7` and `service 3` pick one.
 */
export function SearchBox() {
  const [matches, setMatches] = useState<Match[] | undefined>(undefined)
  const [message, setMessage] = useState<string | undefined>(undefined)
  const search = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault()
    const text = String(new FormData(event.target as HTMLFormElement).get('q') ?? '').trim()
    setMatches(undefined)
    setMessage(undefined)
    if (/^0x[0-9a-fA-F]{40}$/.test(text)) return navigate(`/sellers/${text}`)
    const id = /^(?:(job|service)\s*#?\s*)?#?(0|[1-9][0-9]*)$/i.exec(text)
    if (id === null) return setMessage('Type a job id, a service id (e.g. 7, job 7, service 3) or an address (0x and 40 hex digits).')
    const kind = id[1]?.toLowerCase()
    const number = id[2] as string
    const [job, service] = await Promise.all([
      kind === 'service' ? undefined : client.jobs.getJob({ params: { id: number } }),
      kind === 'job' ? undefined : client.services.getService({ params: { id: number } }),
    ])
    const found: Match[] = []
    if (job?.status === 200) found.push({ label: `Job #${number}`, path: `/jobs/${number}` })
    if (service?.status === 200) found.push({ label: `Service #${number}`, path: `/services/${number}` })
    if (found.length === 1) return navigate((found[0] as Match).path)
    if (found.length === 0) return setMessage(`No ${kind ?? 'job or service'} has the id ${number}.`)
    setMatches(found)
  }
  return html`<form class="search" role="search" onSubmit=${search}>
    <input name="q" type="search" placeholder="Job id, service id or address" aria-label="Search" autocomplete="off" />
    <button type="submit">Go</button>
    ${message === undefined ? null : html`<p class="search-note" role="status">${message}</p>`}
    ${matches === undefined
      ? null
      : html`<p class="search-note" role="status">${matches.map((match, index) => html`${index > 0 ? ' or ' : ''}<a href=${match.path} onClick=${() => setMatches(undefined)}>${match.label}</a>`)}</p>`}
  </form>`
}
