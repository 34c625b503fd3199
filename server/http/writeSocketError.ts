import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { corsHeaders } from './addCorsHeaders.ts'
import { toErrorReply } from './toErrorReply.ts'

/**
 * Answers on a bare socket, where no request object exists (Node refused the request, or it is a
 * CONNECT): our `{ error: { code, message } }` body with the CORS headers, then the connection
 * is closed. A socket that can no longer be written to is only destroyed.
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
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${text}`)
}
