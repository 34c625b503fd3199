import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { receiveBenchOptions } from './receiveBenchOptions.ts'

/** One canned answer: the exact status, content type and body bytes our server sent for that request. */
export type CannedResponse = {
  method: 'GET' | 'POST'
  path: string
  /** The request body that selects this answer (POSTs to one path differ only by body). */
  requestBody: string
  status: number
  contentType: string
  body: string
}

export type CeilingServerOptions = { responses: readonly CannedResponse[] }

export type CeilingServerMessage = { type: 'listening'; url: string } | { type: 'cpu'; micros: number }

/**
 * The ceiling: a bare `node:http` server in its own process that answers each known request with
 * a prebuilt buffer of the same size and type as our server's answer, doing no other work. What
 * it sustains under the same load is the most any Node server can on this machine.
 */
const { responses } = await receiveBenchOptions<CeilingServerOptions>()
const canned = new Map(
  responses.map(({ method, path, requestBody, status, contentType, body }) => {
    const bytes = Buffer.from(body, 'utf8')
    const headers = { 'content-type': contentType, 'content-length': String(bytes.length) }
    return [`${method} ${path} ${requestBody}`, { status, headers, bytes }]
  }),
)

const server = createServer((request, response) => {
  // The body is read to its end first, as any real handler must.
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => {
    const answer = canned.get(`${request.method} ${request.url} ${Buffer.concat(chunks).toString('utf8')}`)
    if (answer === undefined) {
      response.writeHead(404).end()
      return
    }
    response.writeHead(answer.status, answer.headers).end(answer.bytes)
  })
})
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo
  process.send?.({ type: 'listening', url: `http://127.0.0.1:${port}` } satisfies CeilingServerMessage)
})
process.on('message', (message: { type?: string }) => {
  if (message.type !== 'cpu') return
  const { user, system } = process.cpuUsage()
  process.send?.({ type: 'cpu', micros: user + system } satisfies CeilingServerMessage)
})
process.on('SIGTERM', () => process.exit(0))
process.on('disconnect', () => process.exit(0))
