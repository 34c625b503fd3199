import { connect, type ClientHttp2Session } from 'node:http2'
import type { RunLoadParameters, RunLoadReturnType } from './runLoad.ts'

export type RunHttp2LoadParameters = Omit<RunLoadParameters, 'body' | 'method' | 'headers'> & {
  /** The CA that signed the server's certificate. */
  ca: string
  /** HTTP/2 connections; the `connections` requests in flight are spread over them as streams. */
  sessions: number
}

/**
 * What runLoad does with autocannon, which speaks only HTTP/1.1, over HTTP/2: `connections`
 * requests always in flight as streams over `sessions` kept-open TLS connections, each answered
 * request followed at once by the next; a warm-up, then the measured run.
 */
export async function runHttp2Load({ url, connections, durationSec, warmupSec, serverCpu, ca, sessions: sessionCount }: RunHttp2LoadParameters): Promise<RunLoadReturnType> {
  const { origin, host, pathname, search } = new URL(url)
  const sessions: ClientHttp2Session[] = await Promise.all(
    Array.from({ length: sessionCount }, () => {
      const session = connect(origin, { ca, peerMaxConcurrentStreams: connections })
      return new Promise<ClientHttp2Session>((resolve, reject) => {
        session.once('connect', () => resolve(session))
        session.once('error', reject)
      })
    }),
  )
  const path = pathname + search
  const request = (session: ClientHttp2Session): Promise<number> =>
    new Promise((resolve) => {
      // `host` beside `:authority`: hardenServer's Host check reads only `host` (see measureTls).
      const stream = session.request({ ':path': path, ':method': 'GET', host })
      let status = 0
      stream.on('response', (headers) => (status = Number(headers[':status'])))
      stream.on('data', () => undefined)
      stream.on('end', () => resolve(status))
      stream.on('error', () => resolve(0))
    })
  const drive = async (seconds: number) => {
    const latencies: number[] = []
    let failures = 0
    const end = performance.now() + seconds * 1000
    await Promise.all(
      Array.from({ length: connections }, async (_unused, index) => {
        const session = sessions[index % sessions.length]!
        while (performance.now() < end) {
          const started = performance.now()
          const status = await request(session)
          if (status >= 200 && status < 300) latencies.push(performance.now() - started)
          else failures++
        }
      }),
    )
    return { latencies, failures }
  }
  try {
    if (warmupSec > 0) await drive(warmupSec)
    const cpuBefore = await serverCpu()
    const started = performance.now()
    const { latencies, failures } = await drive(durationSec)
    const elapsedSec = (performance.now() - started) / 1000
    const cpuMicros = (await serverCpu()) - cpuBefore
    latencies.sort((a, b) => a - b)
    const at = (share: number): number => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? 0) * 100) / 100
    return {
      requestsPerSec: latencies.length / elapsedSec,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      requests: latencies.length,
      cpuMicrosPerRequest: cpuMicros / Math.max(1, latencies.length + failures),
      failures,
    }
  } finally {
    for (const session of sessions) session.close()
  }
}
