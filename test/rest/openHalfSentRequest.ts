import { connect } from 'node:net'

/**
 * How a client leaves a request unfinished:
 * - `half-headers`: part of the headers, then nothing;
 * - `header-drip`: part of the headers, then one more header line a second;
 * - `byte-drip`: the request line and headers one byte a second;
 * - `silent`: connects and sends nothing;
 * - `keep-alive-half`: a whole keep-alive request, and once it is answered part of a second one.
 */
export type HalfSentKind = 'half-headers' | 'header-drip' | 'byte-drip' | 'silent' | 'keep-alive-half'

export const halfSentKinds: readonly HalfSentKind[] = ['half-headers', 'header-drip', 'byte-drip', 'silent', 'keep-alive-half']

export type OpenHalfSentRequestParameters = {
  port: number
  /** A path the server answers (the first request of `keep-alive-half`). */
  path: string
  kind: HalfSentKind
  /** The client gives up and counts the socket as never closed after this long. */
  giveUpMs: number
}

export type HalfSentResult = {
  kind: HalfSentKind
  /** From the start of the unfinished request to the server's close; Infinity when it never closed. */
  closedAfterMs: number
  /** What the server sent after the last request the client completed. */
  answer: string
}

/**
 * A hostile client: it never finishes its request, and once the server answers or ends it keeps
 * writing all the same (`allowHalfOpen`), so only a socket the server destroyed counts as closed.
 */
export function openHalfSentRequest({ port, path, kind, giveUpMs }: OpenHalfSentRequestParameters): Promise<HalfSentResult> {
  return new Promise((resolve) => {
    const head = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: applic`
    let started = performance.now()
    let answer = ''
    let firstAnswered = kind !== 'keep-alive-half'
    let ended = false
    let sent = 0
    let connected = false
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => {
      connected = true
      started = performance.now()
      if (kind === 'half-headers' || kind === 'header-drip') socket.write(head)
      // The request starts with its first byte (Node's headers timeout counts from there), sent at once.
      if (kind === 'byte-drip') socket.write(head[sent++] ?? 'G')
      if (kind === 'keep-alive-half') socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`)
    })
    // Not before the connection: a drip queued ahead of the request's start would make it malformed.
    const drip = setInterval(() => {
      if (!connected || !socket.writable || ended) return
      if (kind === 'header-drip') socket.write(`\r\nX-Slow-${sent++}: a`)
      else if (kind === 'byte-drip') socket.write(head[sent++ % head.length] ?? 'a')
    }, 1_000)
    // Once the server has ended its side: a write to a socket it has destroyed is what makes the
    // close show here (a peer that only ended it would take the bytes and stay open).
    const probe = setInterval(() => ended && socket.writable && socket.write('x'), 100)
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs)
    socket.on('data', (chunk: Buffer) => {
      if (firstAnswered) {
        answer += chunk.toString('latin1')
        return
      }
      // The first answer is whole once its body has arrived; then the second request starts, half-sent.
      answer += chunk.toString('latin1')
      const [headers = '', body = ''] = answer.split('\r\n\r\n')
      const length = Number(/content-length: (\d+)/i.exec(headers)?.[1] ?? 0)
      if (answer.includes('\r\n\r\n') && Buffer.byteLength(body, 'latin1') >= length) {
        firstAnswered = true
        answer = ''
        started = performance.now()
        socket.write(head)
      }
    })
    socket.on('end', () => (ended = true))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(drip)
      clearInterval(probe)
      clearTimeout(giveUp)
      const closedAfterMs = performance.now() - started
      resolve({ kind, closedAfterMs: closedAfterMs >= giveUpMs - 50 ? Infinity : closedAfterMs, answer })
    })
  })
}
