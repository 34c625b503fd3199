import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'

/** One Server-Sent Event as it came: its fields (data unparsed), and when its last byte arrived. */
export type StreamFrame = { id: string | undefined; event: string | undefined; data: string | undefined; receivedAt: number }

export type OpenEventStreamParameters = {
  /** The whole URL, path and query included; its host is what `Host` and TLS's SNI name. */
  url: string
  /** Where to connect instead of the URL's host (a public name served by a local proxy). */
  connectHost?: string
  /** The client's address (a loopback alias: each is a client of its own). */
  localAddress?: string
  headers?: Record<string, string>
  /** The CA to trust over https. */
  ca?: string
  /** Keep each event's data (default true); a bench holding thousands of streams keeps ids and types only. */
  keepData?: boolean
}

export type EventStream = {
  status: number
  headers: IncomingHttpHeaders
  /** A refusal's whole body (status other than 200); '' for a stream. */
  body: string
  /** Events received so far, in order. */
  readonly frames: readonly StreamFrame[]
  /** Comment lines received so far (`: keep-alive`), without the colon. */
  readonly comments: readonly string[]
  /** The `retry:` values received. */
  readonly retries: readonly number[]
  /** Whether the server ended the stream (or the connection broke). */
  readonly ended: boolean
  /** Resolves once `check` holds (checked at each frame, comment and end); rejects after `timeoutMs`. */
  waitFor(check: (stream: EventStream) => boolean, timeoutMs?: number): Promise<void>
  close(): void
}

/**
 * `GET /v1/events` (or any event stream) over a real socket of its own (no agent, so no pooling),
 * parsed as an `EventSource` would, keeping every frame with its arrival time. Resolves once the
 * answer's headers came (a refusal's body read whole).
 */
export function openEventStream({ url, connectHost, localAddress, headers = {}, ca, keepData = true }: OpenEventStreamParameters): Promise<EventStream> {
  const target = new URL(url)
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: connectHost ?? target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        headers: { host: target.host, accept: 'text/event-stream', ...headers },
        localAddress,
        agent: false,
        ...(target.protocol === 'https:' ? { ca, servername: isIP(target.hostname) === 0 ? target.hostname : undefined } : {}),
      },
      (response) => {
        if (response.statusCode !== 200) readRefusal(response).then(resolve, reject)
        else resolve(followStream(response, { keepData, destroy: () => outgoing.destroy() }))
      },
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

function readRefusal(response: IncomingMessage): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    let body = ''
    response.setEncoding('utf8')
    response.on('data', (chunk: string) => (body += chunk))
    response.on('error', reject)
    response.on('end', () =>
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        body,
        frames: [],
        comments: [],
        retries: [],
        ended: true,
        waitFor: async () => Promise.reject(new Error(`No stream: the answer was ${response.statusCode} ${body}`)),
        close: () => undefined,
      }),
    )
  })
}

function followStream(response: IncomingMessage, { keepData, destroy }: { keepData: boolean; destroy: () => void }): EventStream {
  const frames: StreamFrame[] = []
  const comments: string[] = []
  const retries: number[] = []
  const waiters = new Set<() => void>()
  let ended = false
  let pending = ''
  const stream: EventStream = {
    status: 200,
    headers: response.headers,
    body: '',
    frames,
    comments,
    retries,
    get ended() {
      return ended
    },
    waitFor: (check, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        if (check(stream)) return resolve()
        const timer = setTimeout(() => {
          waiters.delete(look)
          reject(new Error(`The stream did not get there within ${timeoutMs} ms (${frames.length} events, ${comments.length} comments, ended: ${ended}).`))
        }, timeoutMs)
        const look = (): void => {
          if (!check(stream)) return
          clearTimeout(timer)
          waiters.delete(look)
          resolve()
        }
        waiters.add(look)
      }),
    close: destroy,
  }
  const tell = (): void => {
    for (const look of [...waiters]) look()
  }
  response.setEncoding('utf8')
  response.on('data', (chunk: string) => {
    const receivedAt = performance.now()
    pending += chunk
    let end = pending.indexOf('\n\n')
    while (end !== -1) {
      readBlock(pending.slice(0, end), receivedAt, { frames, comments, retries, keepData })
      pending = pending.slice(end + 2)
      end = pending.indexOf('\n\n')
    }
    tell()
  })
  const finish = (): void => {
    ended = true
    tell()
  }
  response.on('end', finish)
  response.on('error', finish)
  response.on('close', finish)
  return stream
}

/** One block of lines up to a blank line: an event (fields), a comment, or a `retry:`. */
function readBlock(block: string, receivedAt: number, into: { frames: StreamFrame[]; comments: string[]; retries: number[]; keepData: boolean }): void {
  const frame: StreamFrame = { id: undefined, event: undefined, data: undefined, receivedAt }
  let isEvent = false
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      into.comments.push(line.slice(1).trim())
      continue
    }
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'retry') into.retries.push(Number(value))
    else if (field === 'id' || field === 'event') {
      frame[field] = value
      isEvent = true
    } else if (field === 'data') {
      if (into.keepData) frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`
      isEvent = true
    }
  }
  if (isEvent) into.frames.push(frame)
}
