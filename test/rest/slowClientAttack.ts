import { connect } from 'node:net'
import type { ServerLimits } from '../../platform/http/hardenServer.ts'

// Slowloris as test/rest/slowClients.test.ts and the bench's slow-clients stage play it: waves of
// half-sent requests after idle keep-alive connections, while /v1/stats is asked again and again.
// Each client behaves as a hostile one does: it ignores the server's FIN and keeps writing, so
// only a socket the server really destroyed counts as closed (an ended one would take the writes
// and stay open).

/**
 * The limits the slow-client test and bench give their servers: timeouts short enough to watch. All
 * the attack's sockets come from 127.0.0.1: it is about timeouts, not the per-address cap.
 */
export const slowClientLimits: ServerLimits = {
  headersTimeoutMs: 1_000,
  requestTimeoutMs: 2_000,
  keepAliveTimeoutMs: 500,
  idleTimeoutMs: 60_000,
  maxConnections: 512,
  maxConnectionsPerAddress: 0,
}

export type SlowClientTarget = { port: number; path: string }

export type Closed = {
  /** From the connection (or, for a keep-alive socket, its last answer) to the close; Infinity when the server never closed it. */
  closedAfterMs: number
  /** What the server sent after the last request the client completed. */
  answer: string
}

export type SlowKind = 'silent' | 'half-headers'

const dripEveryMs = 100

/**
 * A connection that never completes a request: `silent` sends nothing, `half-headers` sends part
 * of its headers and then one more header line every 100 ms. Once the server answers or ends,
 * it keeps writing all the same. Counted as never closed after `giveUpMs`.
 */
export function openSlowClient({ port, path }: SlowClientTarget, kind: SlowKind, giveUpMs: number): Promise<Closed> {
  return new Promise((resolve) => {
    const started = performance.now()
    let answer = ''
    let ended = false
    let line = 0
    let connected = false
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => {
      connected = true
      if (kind === 'half-headers') socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: applic`)
    })
    // Not before the connection: on a loaded host a drip queued ahead of the request line would
    // start the request with a header line, which the server rightly refuses as malformed (400).
    const drip = setInterval(() => {
      if (connected && (kind === 'half-headers' || ended) && socket.writable) socket.write(ended ? 'x' : `\r\nX-Slow-${line++}: a`)
    }, dripEveryMs)
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs)
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')))
    socket.on('end', () => (ended = true))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(drip)
      clearTimeout(giveUp)
      const closedAfterMs = performance.now() - started
      resolve({ closedAfterMs: closedAfterMs >= giveUpMs ? Infinity : closedAfterMs, answer })
    })
  })
}

/** A keep-alive connection that completes one request, then sends nothing more until the server closes it (or `giveUpMs` after its answer). */
export function openIdleKeepAlive({ port, path }: SlowClientTarget, giveUpMs: number): Promise<Closed> {
  return new Promise((resolve) => {
    let answer = ''
    let answeredAt = performance.now()
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`),
    )
    let ended = false
    const drip = setInterval(() => ended && socket.writable && socket.write('x'), dripEveryMs)
    let giveUp = setTimeout(() => socket.destroy(), giveUpMs)
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1')
      answeredAt = performance.now()
      clearTimeout(giveUp)
      giveUp = setTimeout(() => socket.destroy(), giveUpMs)
    })
    socket.on('end', () => (ended = true))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(drip)
      clearTimeout(giveUp)
      const closedAfterMs = performance.now() - answeredAt
      resolve({ closedAfterMs: closedAfterMs >= giveUpMs ? Infinity : closedAfterMs, answer })
    })
  })
}

export type ProbeResult = {
  statuses: number[]
  durationsMs: number[]
  /** Answers that came while the attack was still on (before `stop` resolved). */
  answeredDuringAttack: number
}

/** Asks `/v1/stats` one request after another, timing each, until `stop` resolves. */
export async function probeStats(port: number, stop: Promise<unknown>): Promise<ProbeResult> {
  let stopped = false
  void stop.then(() => (stopped = true))
  const statuses: number[] = []
  const durationsMs: number[] = []
  let answeredDuringAttack = 0
  while (!stopped) {
    const started = performance.now()
    const response = await fetch(`http://127.0.0.1:${port}/v1/stats`)
    await response.arrayBuffer()
    if (!stopped) answeredDuringAttack++
    durationsMs.push(performance.now() - started)
    statuses.push(response.status)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return { statuses, durationsMs, answeredDuringAttack }
}

export type SlowClientAttackParameters = {
  targets: readonly SlowClientTarget[]
  /** The server whose /v1/stats is probed during the attack. */
  probePort: number
  clientsPerTarget: number
  waves: number
  waveGapMs: number
  /** After this long a half-sent socket, or an idle keep-alive one after its answer, counts as never closed. */
  giveUpMs: number
}

export type SlowClientAttackResult = {
  /** One idle keep-alive socket per target, in the targets' order. */
  idle: Closed[]
  halfSent: Closed[]
  probe: ProbeResult
}

/** One idle keep-alive socket per target, then `waves` waves of half-sent requests, while /v1/stats is probed, until every socket closed. */
export async function runSlowClientAttack({ targets, probePort, clientsPerTarget, waves, waveGapMs, giveUpMs }: SlowClientAttackParameters): Promise<SlowClientAttackResult> {
  const keepAlive = targets.map((target) => openIdleKeepAlive(target, giveUpMs))
  const slow: Promise<Closed>[] = []
  const opening = (async () => {
    for (let wave = 0; wave < waves; wave++) {
      for (const target of targets) {
        for (let index = 0; index < clientsPerTarget / waves; index++) {
          slow.push(openSlowClient(target, index % 2 === 0 ? 'half-headers' : 'silent', giveUpMs))
        }
      }
      await new Promise((resolve) => setTimeout(resolve, waveGapMs))
    }
  })()
  const allClosed = opening.then(() => Promise.all([...keepAlive, ...slow]))
  const [closed, probe] = await Promise.all([allClosed, probeStats(probePort, allClosed)])
  return { idle: closed.slice(0, keepAlive.length), halfSent: closed.slice(keepAlive.length), probe }
}
