import { connect } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { ServerLimits } from '../../platform/http/hardenServer.ts'
import { startHostedMcp, startRest, startSeller, type HardenedServer } from './startHardenedServers.ts'

// Slowloris against all three servers at once: hundreds of half-sent requests arriving in waves,
// after idle keep-alive connections and while earlier ones are still open or already closed.
// Each client behaves as a hostile one does: it ignores the server's FIN and keeps writing, so
// only a socket the server really destroyed counts as closed (an ended one would take the
// writes and stay open). The idle timeout is longer than the test, so only the headers and
// keep-alive timeouts can close anything.

const limits: ServerLimits = {
  headersTimeoutMs: 1_000,
  requestTimeoutMs: 2_000,
  keepAliveTimeoutMs: 500,
  idleTimeoutMs: 20_000,
  maxConnections: 512,
  // All 300 come from 127.0.0.1: this test is about timeouts, not the per-address cap.
  maxConnectionsPerAddress: 0,
}

/** Node looks for expired requests every quarter of the headers timeout; the rest is a loaded machine's slack. */
const closeLimitMs = limits.headersTimeoutMs + limits.headersTimeoutMs / 4 + 1_000
const clientsPerServer = 100
const waves = 4
const waveGapMs = 400
const dripEveryMs = 100

type Closed = {
  /** From the connection (or, for a keep-alive socket, its last answer) to the close; Infinity when the server never closed it. */
  closedAfterMs: number
  /** What the server sent after the last request the client completed. */
  answer: string
}

type SlowKind = 'silent' | 'half-headers'

/**
 * A connection that never completes a request: `silent` sends nothing, `half-headers` sends part
 * of its headers and then one more header line every 100 ms. Once the server answers or ends,
 * it keeps writing all the same.
 */
function openSlowClient(port: number, path: string, kind: SlowKind): Promise<Closed> {
  return new Promise((resolve) => {
    const started = performance.now()
    let answer = ''
    let ended = false
    let line = 0
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => {
      if (kind === 'half-headers') socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: applic`)
    })
    const drip = setInterval(() => {
      if ((kind === 'half-headers' || ended) && socket.writable) socket.write(ended ? 'x' : `\r\nX-Slow-${line++}: a`)
    }, dripEveryMs)
    const giveUp = setTimeout(() => socket.destroy(), closeLimitMs + 2_000)
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')))
    socket.on('end', () => (ended = true))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(drip)
      clearTimeout(giveUp)
      const closedAfterMs = performance.now() - started
      resolve({ closedAfterMs: closedAfterMs > closeLimitMs + 2_000 ? Infinity : closedAfterMs, answer })
    })
  })
}

/** A keep-alive connection that completes one request, then sends nothing more until the server closes it. */
function openIdleKeepAlive(port: number, path: string): Promise<Closed> {
  return new Promise((resolve) => {
    let answer = ''
    let answeredAt = performance.now()
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`),
    )
    let ended = false
    const drip = setInterval(() => ended && socket.writable && socket.write('x'), dripEveryMs)
    const giveUp = setTimeout(() => socket.destroy(), limits.keepAliveTimeoutMs + 5_000)
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1')
      answeredAt = performance.now()
    })
    socket.on('end', () => (ended = true))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(drip)
      clearTimeout(giveUp)
      const closedAfterMs = performance.now() - answeredAt
      resolve({ closedAfterMs: closedAfterMs > limits.keepAliveTimeoutMs + 4_000 ? Infinity : closedAfterMs, answer })
    })
  })
}

/** Times `/v1/stats` answers until `stop` resolves. */
async function probe(port: number, stop: Promise<unknown>): Promise<{ statuses: number[]; durationsMs: number[] }> {
  let stopped = false
  void stop.then(() => (stopped = true))
  const statuses: number[] = []
  const durationsMs: number[] = []
  while (!stopped) {
    const started = performance.now()
    const response = await fetch(`http://127.0.0.1:${port}/v1/stats`)
    await response.arrayBuffer()
    durationsMs.push(performance.now() - started)
    statuses.push(response.status)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return { statuses, durationsMs }
}

let servers: HardenedServer[] = []

beforeAll(async () => {
  servers = [await startRest(limits), await startHostedMcp(limits), await startSeller(limits)]
})
afterAll(() => Promise.all(servers.map((server) => server.close())))

test('300 half-sent requests in waves, after idle keep-alive sockets, are all closed within the headers timeout while /v1/stats answers', async () => {
  const [rest] = servers
  if (rest === undefined) throw new Error('The REST server did not start.')
  const keepAlive = servers.map((server) => openIdleKeepAlive(server.port, server.path))
  const slow: Promise<Closed>[] = []
  const opening = (async () => {
    for (let wave = 0; wave < waves; wave++) {
      for (const server of servers) {
        for (let index = 0; index < clientsPerServer / waves; index++) {
          slow.push(openSlowClient(server.port, server.path, index % 2 === 0 ? 'half-headers' : 'silent'))
        }
      }
      await new Promise((resolve) => setTimeout(resolve, waveGapMs))
    }
  })()
  const allClosed = opening.then(() => Promise.all([...keepAlive, ...slow]))
  const probes = probe(rest.port, allClosed)
  const [closed, { statuses, durationsMs }] = await Promise.all([allClosed, probes])

  expect(slow).toHaveLength(300)
  const idle = closed.slice(0, keepAlive.length)
  const halfSent = closed.slice(keepAlive.length)
  expect(idle.map(({ answer }) => answer.slice(0, 12))).toEqual(servers.map(() => expect.stringMatching(/^HTTP\/1\.1 [24]0\d$/)))
  // Node keeps an idle keep-alive socket 1 s past the timeout it advertises, so a client reusing it at the last moment does not race the close.
  expect(Math.max(...idle.map(({ closedAfterMs }) => closedAfterMs))).toBeLessThan(limits.keepAliveTimeoutMs + 1_000 + 1_000)
  expect(halfSent.filter(({ answer }) => !answer.startsWith('HTTP/1.1 408 '))).toEqual([])
  expect(Math.max(...halfSent.map(({ closedAfterMs }) => closedAfterMs))).toBeLessThan(closeLimitMs)

  expect(statuses.length).toBeGreaterThan(10)
  expect(new Set(statuses)).toEqual(new Set([200]))
  const sorted = durationsMs.toSorted((a, b) => a - b)
  expect(sorted[Math.ceil(sorted.length * 0.99) - 1]).toBeLessThan(1_000)
})
