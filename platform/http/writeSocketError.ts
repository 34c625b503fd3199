import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { corsHeaders } from './addCorsHeaders.ts'
import { toErrorReply } from './toErrorReply.ts'

/** How long a peer that reads nothing may hold up the answer before its socket is destroyed unsent. */
const flushLimitMs = 1_000

/**
 * Answers on a bare socket, where no request object exists (Node refused the request, or it is a
 * CONNECT): our `{ error: { code, message } }` body with the CORS headers, then the connection
 * is closed. A socket that can no longer be written to is only destroyed.
 *
 * Closed means destroyed once the answer is flushed, not only ended: Node's HTTP server keeps its
 * sockets half-open (`allowHalfOpen`), so an ended socket stays open and readable for as long as
 * the peer keeps its side open. Node has already dropped a timed-out request from the list its
 * headers and request timeouts check, and every byte the peer sends restarts the idle timeout,
 * so a slowloris client that ignores our FIN and keeps dripping header lines would hold the
 * socket (and a place under `maxConnections`) for ever.
 */
export function writeSocketError(socket: Duplex, error: unknown): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const { status, headers, body } = toErrorReply(error)
  const text = JSON.stringify(body)
  const lines = Object.entries({
    ...corsHeaders,
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    connection: 'close',
  }).map(([name, value]) => `${name}: ${value}`)
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${text}`, () => socket.destroy())
  setTimeout(() => socket.destroy(), flushLimitMs).unref()
}
