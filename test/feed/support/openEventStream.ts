import { request, type IncomingHttpHeaders } from 'node:http'

/** One Server-Sent Event as it arrived: its fields, the data parsed as JSON. */
export type ReceivedEvent = { id: string | undefined; event: string; data: any }

export type OpenedEventStream = {
  status: number
  headers: IncomingHttpHeaders
  /** The body as it arrived, for a refusal (JSON) or to look at comments. */
  readonly text: string
  readonly events: readonly ReceivedEvent[]
  /** Resolves with the first event from `from` on that passes `check`; rejects after `timeoutMs`. */
  waitFor(check: (event: ReceivedEvent) => boolean, options?: { from?: number; timeoutMs?: number }): Promise<ReceivedEvent>
  /** Resolves once the server ended or cut the stream. */
  readonly ended: Promise<void>
  close(): void
}

/**
 * A stream read the way the protocol says, with a parser of its own (not the client's, not the
 * server's): blocks end at a blank line; `id:`, `event:`, `data:` lines; comments start with `:`.
 */
export function openEventStream(url: string, { headers = {}, localAddress }: { headers?: Record<string, string>; localAddress?: string } = {}): Promise<OpenedEventStream> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers: { accept: 'text/event-stream', ...headers }, localAddress }, (response) => {
      let text = ''
      let pending = ''
      const events: ReceivedEvent[] = []
      const listeners = new Set<() => void>()
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        text += chunk
        pending += chunk
        for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
          const block = pending.slice(0, end)
          pending = pending.slice(end + 2)
          const fields = new Map<string, string>()
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue
            const colon = line.indexOf(':')
            fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''))
          }
          if (fields.has('data')) events.push({ id: fields.get('id'), event: fields.get('event') ?? 'message', data: JSON.parse(fields.get('data') as string) })
        }
        for (const listener of listeners) listener()
      })
      const ended = new Promise<void>((done) => {
        response.once('close', () => done())
        response.once('error', () => done())
      })
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        get text() {
          return text
        },
        events,
        ended,
        close: () => outgoing.destroy(),
        waitFor(check, { from = 0, timeoutMs = 60_000 } = {}) {
          return new Promise((found, fail) => {
            const look = (): boolean => {
              const event = events.slice(from).find(check)
              if (event === undefined) return false
              clearTimeout(timer)
              listeners.delete(listen)
              found(event)
              return true
            }
            const listen = (): void => void look()
            const timer = setTimeout(() => {
              listeners.delete(listen)
              fail(new Error(`no such event within ${timeoutMs} ms; got ${events.map((event) => `${event.event} ${event.id ?? ''}`).join(', ')}`))
            }, timeoutMs)
            if (!look()) listeners.add(listen)
          })
        },
      })
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}
