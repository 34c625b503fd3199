import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

const faultKinds = ['drop', 'status429', 'status500', 'delay', 'rangeTooLarge'] as const
export type FaultKind = (typeof faultKinds)[number]
export type FaultCounts = Record<FaultKind, number>

export type StartFaultProxyParameters = {
  /** JSON-RPC endpoint of the real node. */
  target: string
  /** Probability (0..1) that a request gets one random fault of `kinds`. */
  faultRate?: number
  /** Which random faults to inject (default all four). */
  kinds?: readonly RandomFaultKind[]
  /** `eth_getLogs` spanning more blocks than this is refused with a "range too large" error. */
  maxLogRange?: bigint
  /** How long a delayed request is held before it is forwarded; set it past the client's timeout. */
  delayMs?: number
  /** Seed of the fault dice, so a run can be replayed. */
  seed?: number
}

export type FaultProxy = {
  url: string
  /** Injected faults by kind, updated live. */
  counts: FaultCounts
  /** Requests received, faulty or not. */
  requests: () => number
  setFaultRate: (rate: number) => void
  stop: () => Promise<void>
}

type JsonRpcRequest = { jsonrpc: '2.0'; id: unknown; method: string; params?: unknown[] }
type JsonRpcResponse = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: unknown }

const randomFaults = ['drop', 'status429', 'status500', 'delay'] as const satisfies readonly FaultKind[]
export type RandomFaultKind = (typeof randomFaults)[number]

/**
 * A JSON-RPC proxy on 127.0.0.1 that misbehaves like a public RPC endpoint on a bad day: it
 * drops connections, answers 429 and 500, holds requests past the client's timeout, and refuses
 * wide `eth_getLogs` ranges the way rate-limited providers do.
 */
export async function startFaultProxy({
  target,
  faultRate = 0,
  kinds = randomFaults,
  maxLogRange,
  delayMs = 5_000,
  seed = 1,
}: StartFaultProxyParameters): Promise<FaultProxy> {
  const counts: FaultCounts = { drop: 0, status429: 0, status500: 0, delay: 0, rangeTooLarge: 0 }
  const random = mulberry32(seed)
  let rate = faultRate
  let requests = 0
  const timers = new Set<NodeJS.Timeout>()

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    requests += 1
    const body = await readBody(req)
    if (random() < rate) {
      const kind = kinds[Math.floor(random() * kinds.length)] ?? 'drop'
      counts[kind] += 1
      if (kind === 'drop') {
        req.socket.destroy()
        return
      }
      if (kind === 'status429' || kind === 'status500') {
        const status = kind === 'status429' ? 429 : 500
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 429 ? 'Too Many Requests' : 'Internal Server Error')
        return
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer)
          resolve()
        }, delayMs)
        timers.add(timer)
      })
    }
    const answer = await forward(body)
    if (!res.destroyed) res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body)
  }

  const forward = async (body: string): Promise<{ status: number; body: string }> => {
    if (maxLogRange === undefined) return post(target, body)
    let parsed: JsonRpcRequest | JsonRpcRequest[]
    try {
      parsed = JSON.parse(body) as JsonRpcRequest | JsonRpcRequest[]
    } catch {
      return post(target, body)
    }
    const batch = Array.isArray(parsed) ? parsed : [parsed]
    const refused = new Map<JsonRpcRequest, JsonRpcResponse>()
    for (const request of batch) {
      const span = await logRangeSpan(request)
      if (span !== undefined && span > maxLogRange) {
        counts.rangeTooLarge += 1
        refused.set(request, {
          jsonrpc: '2.0',
          id: request.id,
          error: { code: -32005, message: `query block range too large: ${span} blocks, max is ${maxLogRange}` },
        })
      }
    }
    if (refused.size === 0) return post(target, body)
    const passed = batch.filter((request) => !refused.has(request))
    const forwarded = new Map<unknown, JsonRpcResponse>()
    if (passed.length > 0) {
      const answer = await post(target, JSON.stringify(passed))
      for (const response of JSON.parse(answer.body) as JsonRpcResponse[]) forwarded.set(response.id, response)
    }
    const responses = batch.map((request) => refused.get(request) ?? forwarded.get(request.id))
    return { status: 200, body: JSON.stringify(Array.isArray(parsed) ? responses : responses[0]) }
  }

  const logRangeSpan = async (request: JsonRpcRequest): Promise<bigint | undefined> => {
    if (request.method !== 'eth_getLogs') return undefined
    const filter = request.params?.[0] as { fromBlock?: string; toBlock?: string; blockHash?: string } | undefined
    if (filter === undefined || filter.blockHash !== undefined) return undefined
    const fromBlock = await resolveBlock(filter.fromBlock ?? 'latest')
    const toBlock = await resolveBlock(filter.toBlock ?? 'latest')
    return toBlock - fromBlock + 1n
  }

  const resolveBlock = async (tag: string): Promise<bigint> => {
    if (tag.startsWith('0x')) return BigInt(tag)
    if (tag === 'earliest') return 0n
    const answer = await post(target, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] }))
    return BigInt((JSON.parse(answer.body) as { result: string }).result)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) res.writeHead(502).end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    requests: () => requests,
    setFaultRate: (next) => {
      rate = next
    },
    stop: async () => {
      for (const timer of timers) clearTimeout(timer)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

async function post(url: string, body: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return { status: response.status, body: await response.text() }
}

/** Small seeded PRNG: reproducible dice without a dependency. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}
