import autocannon from 'autocannon'

export type RunLoadParameters = {
  url: string
  method?: 'GET' | 'POST'
  body?: string
  headers?: Record<string, string>
  connections: number
  durationSec: number
  /** Load at the same level first, not counted: JIT, connection setup, caches. */
  warmupSec: number
  /** The server's CPU time so far (µs), read around the measured run. */
  serverCpu: () => Promise<number>
  /**
   * Whether a 2xx answer's body is what the figure is about (an MCP tool error is a 200): one that
   * is not counts as a failure, not as served.
   */
  verifyBody?: ((body: string) => boolean) | undefined
}

export type RunLoadReturnType = {
  /** Responses with a 2xx status and a body that passed `verifyBody`, per second of the measured run. */
  requestsPerSec: number
  p50Ms: number
  p99Ms: number
  requests: number
  /**
   * Server CPU time per answered request (µs): on a shared machine this moves far less than
   * req/s, which also depends on what else got the cores meanwhile.
   */
  cpuMicrosPerRequest: number
  /** Connection errors, timeouts, non-2xx answers and bodies `verifyBody` refused: any of them spoils the figure. */
  failures: number
}

/**
 * Drives one URL with autocannon from this process (the server runs in another): a warm-up run,
 * then the measured run.
 */
export async function runLoad({
  url,
  method = 'GET',
  body,
  headers,
  connections,
  durationSec,
  warmupSec,
  serverCpu,
  verifyBody,
}: RunLoadParameters): Promise<RunLoadReturnType> {
  const checked = verifyBody === undefined ? {} : { verifyBody: (answer: string | Buffer | undefined) => verifyBody(String(answer ?? '')) }
  const options = { url, method, body, headers, connections, timeout: 10, ...checked }
  if (warmupSec > 0) await autocannon({ ...options, duration: warmupSec })
  const cpuBefore = await serverCpu()
  const result = await autocannon({ ...options, duration: durationSec })
  const cpuMicros = (await serverCpu()) - cpuBefore
  const served = result['2xx'] - result.mismatches
  return {
    requestsPerSec: served / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: served,
    cpuMicrosPerRequest: cpuMicros / Math.max(1, result['2xx'] + result.non2xx),
    failures: result.errors + result.timeouts + result.non2xx + result.mismatches,
  }
}
