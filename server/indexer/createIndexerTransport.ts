import { fallback, type Transport } from 'viem'
import { createNodeStallWatch, type NodeStall } from '../../chain/rpc/createNodeStallWatch.ts'
import { createRpcLimiter, type RpcLimiterState } from '../../chain/rpc/createRpcLimiter.ts'
import { httpWithDeadline } from '../../chain/rpc/httpWithDeadline.ts'
import { redactUrl } from '../../config/redactUrl.ts'

export type CreateIndexerTransportParameters = {
  /** The nodes, in order of preference: every call goes to the first that answers it. */
  urls: readonly [string, ...string[]]
  /** Calls per second each node accepts; undefined: learned from the nodes' answers (see createRpcLimiter). */
  requestsPerSecond?: number | undefined
  batchSize: number
  /** One deadline per request, headers and body (httpWithDeadline): past it, the call goes to the next node. */
  timeoutMs: number
}

export type RpcNodeLimits = RpcLimiterState & {
  /** The node, without credentials. */
  url: string
}

export type CreateIndexerTransportReturnType = {
  transport: Transport
  /** Each node's own transport, behind its limiter, in the order of `urls` (the start-up check asks each). */
  nodes: readonly { url: string; transport: Transport }[]
  /** Each node's limiter, in the order of `urls`. */
  limits: () => RpcNodeLimits[]
  /** The nodes that hold a request unanswered now (see createNodeStallWatch), in the order of `urls`. */
  stalls: () => NodeStall[]
  /** Calls `onChange` whenever a node's stall may have begun or ended; returns the unsubscribe function. */
  watchStalls: (onChange: () => void) => () => void
}

/**
 * The indexer's transport: each node behind its own rate limiter, the nodes behind viem's
 * `fallback`, which hands a call that failed on one node (no answer, an HTTP error, a rate limit)
 * to the next, in the configured order. Not ranked: ranking pings every node at every interval,
 * calls that a rate-limited public node counts. A rate-limited node hands its calls over until the
 * wait it asked for is over; the last node has no one to hand over to, so it waits and sends again.
 */
export function createIndexerTransport({ urls, requestsPerSecond, batchSize, timeoutMs }: CreateIndexerTransportParameters): CreateIndexerTransportReturnType {
  const stallListeners = new Set<() => void>()
  const nodes = urls.map((url, index) => {
    const shown = redactUrl(url)
    const limiter = createRpcLimiter({ requestsPerSecond, handOver: index < urls.length - 1, url: shown })
    // Retries are the limiter's (rate limits) and the indexer's own (backoff, never skipping);
    // batching turns each window's reads into one request.
    // Named in health from a quarter of the deadline on, before the call goes to the next node.
    const stallWatch = createNodeStallWatch({ url: shown, stallAfterMs: timeoutMs / 4, onChange: () => stallListeners.forEach((listener) => listener()) })
    const transport = limiter.wrap(httpWithDeadline(url, { batch: { batchSize }, retryCount: 0, timeoutMs, onExchange: stallWatch.onExchange }))
    return { url, shown, limiter, transport, stallWatch }
  })
  const transport = nodes.length === 1 ? (nodes[0] as (typeof nodes)[number]).transport : fallback(nodes.map((node) => node.transport), { retryCount: 0 })
  return {
    transport,
    nodes: nodes.map(({ url, transport: node }) => ({ url, transport: node })),
    limits: () => nodes.map(({ shown, limiter }) => ({ url: shown, ...limiter.state })),
    stalls: () => nodes.flatMap(({ stallWatch }) => stallWatch.stall() ?? []),
    watchStalls: (onChange) => {
      stallListeners.add(onChange)
      return () => stallListeners.delete(onChange)
    },
  }
}
