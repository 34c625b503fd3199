import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createCallRateWindow } from './faultProxy/createCallRateWindow.ts'
import { createHeadCache } from './faultProxy/createHeadCache.ts'
import { describeLogRangeRefusal, type LogRangeWording } from './faultProxy/describeLogRangeRefusal.ts'
import { findMissingStateError, type StateHeader } from './faultProxy/findMissingStateError.ts'
import type { JsonRpcRequest, JsonRpcResponse } from './faultProxy/jsonRpc.ts'
import { readStateBlockParameter } from './faultProxy/readStateBlockParameter.ts'
import { readRequestBody } from './readRequestBody.ts'

const faultKinds = [
  'drop',
  'status429',
  'status500',
  'delay',
  'rangeTooLarge',
  'emptyLogs',
  'partialLogs',
  'undecodableLog',
  'otherChain',
  'lagging',
  'stateUnavailable',
  'rateLimited',
  'slowLogs',
] as const
export type FaultKind = (typeof faultKinds)[number]
export type FaultCounts = Record<FaultKind, number>

/** What a load-balanced node does to an `eth_getLogs` answer that holds logs. */
const logFaults = ['emptyLogs', 'partialLogs', 'undecodableLog'] as const
export type LogFaultKind = (typeof logFaults)[number]

export type StartFaultProxyParameters = {
  /** JSON-RPC endpoint of the real node. */
  target: string
  /** Probability (0..1) that a request gets one random fault of `kinds`. */
  faultRate?: number
  /** Which random faults to inject (default all four). */
  kinds?: readonly RandomFaultKind[]
  /** `eth_getLogs` spanning more blocks than this is refused with a "range too large" error. */
  maxLogRange?: bigint
  /** Whose error message refuses the range (default "proxy": -32005 "query block range too large: N blocks, max is M"). */
  logRangeWording?: LogRangeWording
  /** How long a delayed request is held before it is forwarded; set it past the client's timeout. */
  delayMs?: number
  /** Seed of the fault dice, so a run can be replayed. */
  seed?: number
  /** Probability (0..1) that an `eth_getLogs` answer holding logs gets one random fault of `logKinds`. */
  logFaultRate?: number
  logKinds?: readonly LogFaultKind[]
  /**
   * Probability (0..1) that a request is served by a backend `lagBlocks` behind the head: its
   * "latest" is that block, later blocks are unknown (null headers, "header not found" calls)
   * and its logs stop there: an empty or partial answer, as from a node behind its balancer.
   */
  lagRate?: number
  lagBlocks?: bigint
  /**
   * Serve state (eth_call, eth_getBalance, eth_getStorageAt...) only for the last `stateBlocks`
   * blocks, as a full node (not an archive) does: older ones get geth's "missing trie node" error.
   * Headers, transactions, receipts and logs stay available for every block. Geth keeps 128.
   */
  stateBlocks?: bigint
  /**
   * JSON-RPC calls per second (each call of a batch counts one, over a sliding second). An HTTP
   * request that would go past it is refused whole, batch or not, with HTTP 429, `Retry-After: 1`
   * and a -32005 error for each of its calls, as public endpoints do.
   */
  rateLimit?: number
  /**
   * An `eth_getLogs` answer holding more logs than this is held `delayMs` before it goes out, as
   * a node computing a huge answer does: past the client's timeout, it is a window too wide.
   */
  slowLogsAbove?: number
  /**
   * With `slowLogsAbove`: while a slow answer is held, every request that arrives waits for it to
   * go out first, as a node computing one answer at a time makes everything queue behind it.
   */
  busyWhileSlow?: boolean
}

export type FaultProxy = {
  url: string
  /** Injected faults by kind, updated live. */
  counts: FaultCounts
  /** Requests received, faulty or not. */
  requests: () => number
  /** JSON-RPC calls received (a batch counts each of its calls), by method. */
  calls: Record<string, number>
  /** JSON-RPC calls that arrived while a slow answer was held (`busyWhileSlow`), by method. */
  callsBehindSlow: Record<string, number>
  /** Most JSON-RPC calls that arrived (served or refused) in any one-second window so far. */
  peakCallsPerSecond: () => number
  setFaultRate: (rate: number) => void
  setLogFaultRate: (rate: number) => void
  setLagRate: (rate: number) => void
  /** The next `times` `eth_getLogs` answers holding logs get this fault (before any dice). */
  queueLogFault: (kind: LogFaultKind, times: number) => void
  /** Forgets the queued log faults. */
  clearLogFaults: () => void
  /**
   * Serve another chain: every request goes to `target`, and `eth_chainId` answers `chainId`
   * (the node behind the balancer was swapped); `undefined` switches back.
   */
  switchChain: (other: { target: string; chainId: number } | undefined) => void
  stop: () => Promise<void>
}

type RpcLogLike = { data: string; topics: string[] }

const randomFaults = ['drop', 'status429', 'status500', 'delay'] as const satisfies readonly FaultKind[]
export type RandomFaultKind = (typeof randomFaults)[number]

/**
 * A JSON-RPC proxy on 127.0.0.1 that misbehaves like a public RPC endpoint on a bad day: it
 * drops connections, answers 429 and 500, holds requests past the client's timeout, and refuses
 * wide `eth_getLogs` ranges the way rate-limited providers do; it can also limit calls per second
 * and serve only recent state, like a public full node.
 */
export async function startFaultProxy({
  target,
  faultRate = 0,
  kinds = randomFaults,
  maxLogRange,
  logRangeWording = 'proxy',
  delayMs = 5_000,
  seed = 1,
  logFaultRate = 0,
  logKinds = logFaults,
  lagRate = 0,
  lagBlocks = 3n,
  stateBlocks,
  rateLimit = Number.POSITIVE_INFINITY,
  slowLogsAbove,
  busyWhileSlow = false,
}: StartFaultProxyParameters): Promise<FaultProxy> {
  const counts = Object.fromEntries(faultKinds.map((kind) => [kind, 0])) as FaultCounts
  const random = mulberry32(seed)
  let rate = faultRate
  let logRate = logFaultRate
  let lagging = lagRate
  const queued: LogFaultKind[] = []
  const calls: Record<string, number> = {}
  const callsBehindSlow: Record<string, number> = {}
  const slowHolds = new Set<Promise<void>>()
  let other: { target: string; chainId: number } | undefined
  let requests = 0
  const timers = new Set<NodeJS.Timeout>()
  const callRate = createCallRateWindow({ limit: rateLimit })
  const readHead = createHeadCache({ readHead: () => blockNumber(target) })

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    requests += 1
    const body = await readRequestBody(req)
    const parsed = parseJsonRpc(body)
    const ids = parsed === undefined ? [null] : (Array.isArray(parsed) ? parsed : [parsed]).map((request) => request.id)
    if (!callRate.admit(ids.length)) {
      counts.rateLimited += 1
      const refusals = ids.map((id) => ({ jsonrpc: '2.0', id, error: { code: -32005, message: 'rate limit exceeded' } }))
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
        .end(JSON.stringify(Array.isArray(parsed) ? refusals : refusals[0]))
      return
    }
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
      await hold(delayMs)
    }
    const answer = await forward(body, parsed)
    if (!res.destroyed) res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body)
  }

  const hold = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        resolve()
      }, ms)
      timers.add(timer)
    })

  const forward = async (body: string, parsed: JsonRpcRequest | JsonRpcRequest[] | undefined): Promise<{ status: number; body: string }> => {
    const destination = other?.target ?? target
    if (parsed === undefined) return post(destination, body)
    const batch = Array.isArray(parsed) ? parsed : [parsed]
    for (const { method } of batch) calls[method] = (calls[method] ?? 0) + 1
    if (busyWhileSlow && slowHolds.size > 0) {
      for (const { method } of batch) callsBehindSlow[method] = (callsBehindSlow[method] ?? 0) + 1
      while (slowHolds.size > 0) await Promise.all(slowHolds)
    }
    // One backend serves a whole HTTP request, as behind a load balancer.
    const laggedHead = random() < lagging ? (await blockNumber(destination)) - lagBlocks : undefined
    if (laggedHead !== undefined) counts.lagging += 1
    const answered = new Map<JsonRpcRequest, JsonRpcResponse>()
    const passed: JsonRpcRequest[] = []
    for (const request of batch) {
      const range = maxLogRange === undefined ? undefined : await readLogRange(request)
      if (range !== undefined && maxLogRange !== undefined && range.span > maxLogRange) {
        counts.rangeTooLarge += 1
        answered.set(request, { jsonrpc: '2.0', id: request.id, error: describeLogRangeRefusal({ wording: logRangeWording, ...range, maxLogRange }) })
        continue
      }
      const stateRefusal = await refuseOldState(request)
      if (stateRefusal !== undefined) {
        answered.set(request, stateRefusal)
        continue
      }
      const lagged = laggedHead === undefined ? request : lagRequest(request, laggedHead)
      if ('result' in lagged || 'error' in lagged) answered.set(request, lagged as JsonRpcResponse)
      else passed.push(lagged as JsonRpcRequest)
    }
    const forwarded = new Map<unknown, JsonRpcResponse>()
    if (passed.length > 0) {
      const answer = await post(destination, JSON.stringify(passed))
      if (answer.status !== 200) return answer
      for (const response of JSON.parse(answer.body) as JsonRpcResponse[]) forwarded.set(response.id, response)
    }
    const heavy = batch.some((request) => {
      const result = request.method === 'eth_getLogs' ? forwarded.get(request.id)?.result : undefined
      return slowLogsAbove !== undefined && Array.isArray(result) && result.length > slowLogsAbove
    })
    if (heavy) {
      counts.slowLogs += 1
      const held = hold(delayMs)
      slowHolds.add(held)
      await held
      slowHolds.delete(held)
    }
    const responses = batch.map((request) => {
      const response = answered.get(request) ?? forwarded.get(request.id)
      if (response === undefined) return response
      if (request.method === 'eth_chainId' && other !== undefined && response.result !== undefined) {
        counts.otherChain += 1
        return { ...response, result: `0x${other.chainId.toString(16)}` }
      }
      if (request.method === 'eth_getLogs' && Array.isArray(response.result) && response.result.length > 0) {
        return { ...response, result: spoilLogs(response.result as RpcLogLike[]) }
      }
      return response
    })
    return { status: 200, body: JSON.stringify(Array.isArray(parsed) ? responses : responses[0]) }
  }

  const refuseOldState = async (request: JsonRpcRequest): Promise<JsonRpcResponse | undefined> => {
    const parameter = stateBlocks === undefined ? undefined : readStateBlockParameter(request)
    if (parameter === undefined || stateBlocks === undefined) return undefined
    const error = await findMissingStateError({ parameter, head: await readHead(), stateBlocks, getHeader })
    if (error === undefined) return undefined
    counts.stateUnavailable += 1
    return { jsonrpc: '2.0', id: request.id, error }
  }

  const getHeader = async (block: { number: bigint } | { hash: string }): Promise<StateHeader | null> => {
    const call =
      'hash' in block
        ? { jsonrpc: '2.0', id: 0, method: 'eth_getBlockByHash', params: [block.hash, false] }
        : { jsonrpc: '2.0', id: 0, method: 'eth_getBlockByNumber', params: [`0x${block.number.toString(16)}`, false] }
    const answer = await post(target, JSON.stringify(call))
    const header = (JSON.parse(answer.body) as { result?: { number: string; stateRoot: string } | null }).result
    return header == null ? null : { number: BigInt(header.number), stateRoot: header.stateRoot }
  }

  /** A request as a backend at `head` sees it: rewritten, or answered (null, [], "header not found"). */
  const lagRequest = (request: JsonRpcRequest, head: bigint): JsonRpcRequest | JsonRpcResponse => {
    const headHex = `0x${head.toString(16)}`
    const beyond = (tag: unknown): boolean => typeof tag === 'string' && tag.startsWith('0x') && BigInt(tag) > head
    const params = [...(request.params ?? [])]
    switch (request.method) {
      case 'eth_blockNumber':
        return { jsonrpc: '2.0', id: request.id, result: headHex }
      case 'eth_getBlockByNumber':
        if (params[0] === 'latest') return { ...request, params: [headHex, ...params.slice(1)] }
        if (beyond(params[0])) return { jsonrpc: '2.0', id: request.id, result: null }
        return request
      case 'eth_getLogs': {
        const filter = { ...(params[0] as Record<string, unknown>) }
        if (filter.blockHash !== undefined) return request
        if (beyond(filter.fromBlock)) return { jsonrpc: '2.0', id: request.id, result: [] }
        if (filter.toBlock === 'latest' || beyond(filter.toBlock)) filter.toBlock = headHex
        return { ...request, params: [filter] }
      }
      case 'eth_call':
      case 'eth_getBalance':
      case 'eth_getCode': {
        const tag = params[1]
        if (tag === undefined || tag === 'latest') return { ...request, params: [params[0], headHex] }
        if (beyond(tag)) return { jsonrpc: '2.0', id: request.id, error: { code: -32000, message: 'header not found' } }
        return request
      }
      default:
        return request
    }
  }

  /** One fault of the queue or the dice, or none, applied to an answer that holds logs. */
  const spoilLogs = (logs: RpcLogLike[]): RpcLogLike[] => {
    const kind = queued.shift() ?? (random() < logRate ? logKinds[Math.floor(random() * logKinds.length)] : undefined)
    if (kind === undefined) return logs
    counts[kind] += 1
    if (kind === 'emptyLogs') return []
    const position = Math.floor(random() * logs.length)
    if (kind === 'partialLogs') return logs.toSpliced(position, 1)
    const log = logs[position] as RpcLogLike
    // A cut data field or one topic too many: no event of the ABI decodes it.
    const spoiled = log.data.length > 10 ? { ...log, data: log.data.slice(0, 10) } : { ...log, topics: [...log.topics, `0x${'00'.repeat(32)}`] }
    return logs.toSpliced(position, 1, spoiled)
  }

  const blockNumber = async (url: string): Promise<bigint> => {
    const answer = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] }))
    return BigInt((JSON.parse(answer.body) as { result: string }).result)
  }

  const readLogRange = async (request: JsonRpcRequest): Promise<{ fromBlock: bigint; span: bigint } | undefined> => {
    if (request.method !== 'eth_getLogs') return undefined
    const filter = request.params?.[0] as { fromBlock?: string; toBlock?: string; blockHash?: string } | undefined
    if (filter === undefined || filter.blockHash !== undefined) return undefined
    const fromBlock = await resolveBlock(filter.fromBlock ?? 'latest')
    const toBlock = await resolveBlock(filter.toBlock ?? 'latest')
    return { fromBlock, span: toBlock - fromBlock + 1n }
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
    calls,
    callsBehindSlow,
    peakCallsPerSecond: callRate.peak,
    setFaultRate: (next) => {
      rate = next
    },
    setLogFaultRate: (next) => {
      logRate = next
    },
    setLagRate: (next) => {
      lagging = next
    },
    queueLogFault: (kind, times) => {
      for (let index = 0; index < times; index += 1) queued.push(kind)
    },
    clearLogFaults: () => {
      queued.length = 0
    },
    switchChain: (next) => {
      other = next
    },
    stop: async () => {
      for (const timer of timers) clearTimeout(timer)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** The request or batch in `body`, or undefined when it is not JSON (forwarded as it is). */
function parseJsonRpc(body: string): JsonRpcRequest | JsonRpcRequest[] | undefined {
  try {
    return JSON.parse(body) as JsonRpcRequest | JsonRpcRequest[]
  } catch {
    return undefined
  }
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
