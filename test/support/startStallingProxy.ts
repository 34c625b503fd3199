import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { readRequestBody } from './readRequestBody.ts'

/**
 * What a load balancer in front of a node does to an answer:
 * - `halfBody`: sends the status, the headers (with the whole body's Content-Length) and half the
 *   body, then nothing, the socket left open;
 * - `never`: accepts the request and never answers, the socket left open.
 */
export type StallKind = 'halfBody' | 'never'

export type StartStallingProxyParameters = {
  /** JSON-RPC endpoint of the real node. */
  target: string
}

export type StallingProxy = {
  /** `http://127.0.0.1:<port>`: give it as `--rpc-url`. */
  url: string
  /** Stalls the next `answers` answers in the way of `kind`; the others pass through. */
  stall(parameters: { kind: StallKind; answers: number }): void
  /** Answers stalled so far, and when the last one was (epoch ms). */
  stalled(): { answers: number; lastAt: number | undefined }
  /** Answers passed through in full so far. */
  answered(): number
  stop(): Promise<void>
}

/** An HTTP JSON-RPC pass-through on 127.0.0.1 that stalls the answers a test chooses. */
export async function startStallingProxy({ target }: StartStallingProxyParameters): Promise<StallingProxy> {
  const sockets = new Set<Socket>()
  let pending: { kind: StallKind; answers: number } = { kind: 'never', answers: 0 }
  let stalledAnswers = 0
  let lastStallAt: number | undefined
  let answered = 0

  const stallAnswer = (kind: StallKind, reply: ServerResponse, status: number, body: string): void => {
    stalledAnswers += 1
    lastStallAt = Date.now()
    if (kind === 'never') return
    reply.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    reply.write(body.slice(0, Math.floor(body.length / 2)))
  }

  const server = createServer(async (request, reply) => {
    const body = await readRequestBody(request)
    const kind = pending.answers > 0 ? pending.kind : undefined
    if (kind !== undefined) pending = { kind, answers: pending.answers - 1 }
    if (kind === 'never') return stallAnswer(kind, reply, 0, '')
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
      async (response) => ({ status: response.status, text: await response.text() }),
      () => ({ status: 502, text: '' }),
    )
    if (kind === 'halfBody') return stallAnswer(kind, reply, upstream.status, upstream.text)
    answered += 1
    reply.writeHead(upstream.status, { 'content-type': 'application/json' }).end(upstream.text)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    stall: (next) => {
      pending = next
    },
    stalled: () => ({ answers: stalledAnswers, lastAt: lastStallAt }),
    answered: () => answered,
    async stop() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
