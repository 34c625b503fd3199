import { BenchChildError } from '../errors/bench.ts'
import type { CannedResponse, CeilingServerMessage } from './ceilingServer.ts'
import { readChildCpu } from './readChildCpu.ts'
import { runLoad, type RunLoadReturnType } from './runLoad.ts'
import { spawnBenchChild } from './spawnBenchChild.ts'

export type LoadTarget = {
  name: string
  method: 'GET' | 'POST'
  /** Path and query, e.g. `/v1/jobs?limit=50`. */
  path: string
  body?: string
  headers?: Record<string, string>
  /** Rejects an answer that is not what the figure is meant to be about: the first one, and under load a failure. */
  check?: (status: number, body: string) => string | undefined
}

export type LoadSettings = { connections: number; durationSec: number; warmupSec: number }

export type CompareWithCeilingParameters = {
  /** Origin of the server under test, e.g. `http://127.0.0.1:8080`. */
  origin: string
  /** The server under test's CPU time so far (µs). */
  serverCpu: () => Promise<number>
  targets: readonly LoadTarget[]
  load: LoadSettings
}

export type CeilingComparison = {
  name: string
  path: string
  /** Size of the body both servers send. */
  bodyBytes: number
  ours: RunLoadReturnType
  ceiling: RunLoadReturnType
  /** Our requests per second over the ceiling's. */
  ratio: number
}

export type CompareWithCeilingReturnType = CeilingComparison[]

/**
 * Loads each target on our server, then the same request on a bare `node:http` child that sends
 * our exact first answer from a prebuilt buffer. Runs alternate per target, so drift in the
 * shared machine's load touches both sides of a ratio alike.
 */
export async function compareWithCeiling({ origin, serverCpu, targets, load }: CompareWithCeilingParameters): Promise<CompareWithCeilingReturnType> {
  const responses: CannedResponse[] = []
  for (const target of targets) responses.push(await fetchFirstAnswer(origin, target))

  const ceiling = spawnBenchChild<CeilingServerMessage>({ entry: 'bench/ceilingServer.ts', name: 'ceiling server', options: { responses } })
  try {
    const { url: ceilingOrigin } = await ceiling.next('listening', 30_000)
    const comparisons: CeilingComparison[] = []
    for (const [index, target] of targets.entries()) {
      const check = target.check
      const verifyBody = check === undefined ? undefined : (body: string) => check(200, body) === undefined
      const request = { method: target.method, body: target.body, headers: target.headers, verifyBody, ...load }
      const ours = await runLoad({ url: `${origin}${target.path}`, serverCpu, ...request })
      const bare = await runLoad({ url: `${ceilingOrigin}${target.path}`, serverCpu: () => readChildCpu(ceiling), ...request })
      comparisons.push({
        name: target.name,
        path: target.path,
        bodyBytes: Buffer.byteLength((responses[index] as CannedResponse).body),
        ours,
        ceiling: bare,
        ratio: ours.requestsPerSec / bare.requestsPerSec,
      })
    }
    return comparisons
  } finally {
    await ceiling.stop()
  }
}

/** The target's answer from the server at `origin`, refused (BenchChildError) unless it is a 2xx that passes the target's check. */
export async function fetchFirstAnswer(origin: string, target: LoadTarget): Promise<CannedResponse> {
  const response = await fetch(`${origin}${target.path}`, { method: target.method, body: target.body, headers: target.headers })
  const body = await response.text()
  const problem = response.ok ? target.check?.(response.status, body) : `HTTP ${response.status}: ${body.slice(0, 200)}`
  if (problem !== undefined) throw new BenchChildError(`${target.method} ${target.path} answered wrongly: ${problem}`)
  return {
    method: target.method,
    path: target.path,
    requestBody: target.body ?? '',
    status: response.status,
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    body,
  }
}
