import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { once } from 'node:events'

/** What the endpoint answers to every request, until changed. */
export type HostileBehaviour =
  | { kind: 'redirect'; location: string }
  /** `{"output":"aaaa…"}` streamed, `bytes` long in all, as fast as the reader takes it. */
  | { kind: 'huge'; bytes: number }
  /** `{"output":[[[…]]]}`, nested `depth` levels. */
  | { kind: 'nested'; depth: number }

export type HostileOutputServer = {
  /** `http://127.0.0.1:<port>`. */
  url: string
  behave: (behaviour: HostileBehaviour) => void
  /** Every request received so far: path and headers. */
  requests: { path: string; headers: IncomingHttpHeaders }[]
  /** Body bytes written by the last `huge` answer before the reader stopped taking them (or all of them). */
  lastBytesWritten: () => number
  close: () => Promise<void>
}

/** A seller's output endpoint that misbehaves on purpose, on a free port of 127.0.0.1. */
export async function startHostileOutputServer(): Promise<HostileOutputServer> {
  let behaviour: HostileBehaviour = { kind: 'nested', depth: 1 }
  let written = 0
  const requests: HostileOutputServer['requests'] = []
  const server = createServer((request, response) => {
    requests.push({ path: request.url ?? '', headers: request.headers })
    if (behaviour.kind === 'redirect') {
      response.writeHead(302, { location: behaviour.location }).end()
      return
    }
    if (behaviour.kind === 'nested') {
      const { depth } = behaviour
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`{"output":${'['.repeat(depth)}${']'.repeat(depth)}}`)
      return
    }
    written = 0
    void streamHuge(response, behaviour.bytes, (bytes) => (written = bytes))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    behave: (next) => (behaviour = next),
    requests,
    lastBytesWritten: () => written,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Writes `{"output":"aaa…"}` of `bytes` bytes in 1 MiB chunks, waiting for the reader; stops when it goes away. */
async function streamHuge(response: ServerResponse, bytes: number, onWritten: (bytes: number) => void): Promise<void> {
  const head = '{"output":"'
  const tail = '"}'
  const chunk = Buffer.alloc(1 << 20, 'a')
  response.writeHead(200, { 'content-type': 'application/json' })
  let sent = 0
  const write = (data: Buffer | string): Promise<boolean> => {
    sent += Buffer.byteLength(data)
    onWritten(sent)
    return response.write(data) ? Promise.resolve(true) : Promise.race([once(response, 'drain').then(() => true), once(response, 'close').then(() => false)])
  }
  if (!(await write(head))) return
  while (sent + chunk.length + tail.length <= bytes) {
    if (response.destroyed || !(await write(chunk))) return
  }
  const rest = bytes - sent - tail.length
  if (rest > 0 && !(await write(chunk.subarray(0, rest)))) return
  response.end(tail)
  onWritten(sent + tail.length)
}
