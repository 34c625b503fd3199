import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'

/** One Server-Sent Event as it arrived: its fields, the data parsed as JSON. */
export type ReceivedEvent = { id: string | undefined; event: string; data: any }

export type OpenEventStreamOptions = {
  headers?: Record<string, string>
  /** The client's address (a loopback alias: each is a client of its own). */
  localAddress?: string
  /** Where to connect instead of the URL's host (a public name served by a local proxy); `Host` and TLS's SNI still name the URL's. */
  connectHost?: string
  /** The CA to trust over https. */
  ca?: string
  /**
   * Keep the text and parse each event's data (default true); a bench holding a thousand streams
   * keeps each event's id, type and arrival only.
   */
  keep?: boolean
}

export type OpenedEventStream = {
  status: number
  headers: IncomingHttpHeaders
  /** The body as it arrived, for a refusal (JSON) or to look at comments and `retry:`. */
  readonly text: string
  readonly events: readonly ReceivedEvent[]
  /** When each event's last byte came (performance.now()), by its index in `events`. */
  readonly arrivals: readonly number[]
  /** Resolves with the first event from `from` on that passes `check`; rejects after `timeoutMs`. */
  waitFor(check: (event: ReceivedEvent) => boolean, options?: { from?: number; timeoutMs?: number }): Promise<ReceivedEvent>
  /** Resolves once the server ended or cut the stream (a refusal's body is whole then). */
  readonly ended: Promise<void>
  close(): void
}

/**
 * A stream read the way the protocol says, with a parser of its own (not the client's, not the
 * server's): blocks end at a blank line; `id:`, `event:`, `data:` lines; comments start with `:`.
 * Over a socket of its own (no agent), plain or TLS; resolves once the answer's headers came.
 */
export function openEventStream(url: string, { headers = {}, localAddress, connectHost, ca, keep = true }: OpenEventStreamOptions = {}): Promise<OpenedEventStream> {
  const target = new URL(url)
  const tls = target.protocol === 'https:'
  return new Promise((resolve, reject) => {
    const options = {
      host: connectHost ?? target.hostname,
      port: target.port,
      path: `${target.pathname}${target.search}`,
      headers: { host: target.host, accept: 'text/event-stream', ...headers },
      localAddress,
      agent: false,
      ...(tls ? { ca, servername: isIP(target.hostname) === 0 ? target.hostname : undefined } : {}),
    } as const
    const outgoing = (tls ? httpsRequest : httpRequest)(options, (response) => {
      let text = ''
      let pending = ''
      const events: ReceivedEvent[] = []
      const arrivals: number[] = []
      const listeners = new Set<() => void>()
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        const receivedAt = performance.now()
        if (keep) text += chunk
        pending += chunk
        for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
          const event = readBlock(pending.slice(0, end), keep)
          pending = pending.slice(end + 2)
          if (event === undefined) continue
          events.push(event)
          arrivals.push(receivedAt)
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
        arrivals,
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

/** One block up to a blank line: an event when it has data (comments and `retry:` are not events). */
function readBlock(block: string, keep: boolean): ReceivedEvent | undefined {
  const fields = new Map<string, string>()
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue
    const colon = line.indexOf(':')
    fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''))
  }
  if (!fields.has('data')) return undefined
  return { id: fields.get('id'), event: fields.get('event') ?? 'message', data: keep ? JSON.parse(fields.get('data') as string) : undefined }
}
