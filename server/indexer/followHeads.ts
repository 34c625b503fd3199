import { createClient, hexToBigInt, isHex, TimeoutError, webSocket } from 'viem'
import { NewHeadsError } from '../../errors/chain.ts'

export type FollowHeadsChange =
  | { state: 'subscribed'; endpoint: string }
  /** The subscription is down (or not made yet); the next attempt starts in `retryInMs`. */
  | { state: 'connecting'; endpoint: string; error: NewHeadsError; retryInMs: number }

export type FollowHeadsParameters = {
  /** A ws:// or wss:// JSON-RPC endpoint that serves `eth_subscribe`. */
  url: string
  /** The block number of each new head, as the node announces it. */
  onHead: (blockNumber: bigint) => void
  onChange: (change: FollowHeadsChange) => void
  /** First reconnect delay, doubled per failed attempt up to `maxRetryDelayMs`. */
  retryDelayMs?: number | undefined
  maxRetryDelayMs?: number | undefined
  /**
   * Longest wait for the socket to open and the node to confirm the subscription, and for the
   * answer to a keep-alive: every request on the socket has this deadline (a WebSocket message
   * arrives whole, so the deadline of viem's request covers the whole answer).
   */
  timeoutMs?: number | undefined
  /**
   * Period of a keep-alive request (`net_version`): a connection that does not answer one within
   * this time is dropped and made again (a peer that vanished without closing, e.g. behind a NAT,
   * never sends a close).
   */
  heartbeatMs?: number | undefined
}

export type HeadFollower = {
  /** Closes the socket; no reconnect follows. */
  stop(): Promise<void>
}

/**
 * Subscribes to `newHeads` through viem's WebSocket transport and reports every head. A failed
 * attempt, a closed socket, a refused subscription or an unanswered keep-alive ends the
 * connection and another is made after a capped exponential backoff, forever until `stop`. The
 * backoff resets only once a head came through, so an endpoint that accepts and then drops at
 * once is not hammered.
 *
 * viem's own `reconnect` and `keepAlive` are off, and this loop and keep-alive stay ours, because
 * in viem 2.57 (tested against a dropping, refusing and frozen peer): a failed first connection
 * is never retried (`watchBlockNumber` reports one error and stops); a reconnect whose handshake
 * stalls holds its reconnect loop for good (no handshake timeout), even after the peer is back;
 * a failed reconnect is retried only on the next keep-alive tick, printing the socket's error
 * event to stderr, and after `attempts` the client stays cached dead; the keep-alive never reads
 * its answer, so a silent peer goes unnoticed; and nothing says when a subscription is made again
 * after a reconnect, so health could not say "subscribed". The subscription itself is the
 * transport's `subscribe` (what `watchBlockNumber` wraps), whose promise is the node's
 * confirmation.
 */
export function followHeads({
  url,
  onHead,
  onChange,
  retryDelayMs = 250,
  maxRetryDelayMs = 10_000,
  timeoutMs = 10_000,
  heartbeatMs = 15_000,
}: FollowHeadsParameters): HeadFollower {
  const endpoint = describeEndpoint(url)
  // viem keeps one socket client per URL and options in the process: a connection holds the one
  // it subscribed on and closes it when it ends, so the next connection gets a new one (followers
  // of one URL in one process share it, and one's failure or stop makes the others reconnect).
  const { transport } = createClient({ transport: webSocket(url, { reconnect: false, keepAlive: false }) })
  let stopped = false
  let failures = 0
  let retryTimer: NodeJS.Timeout | undefined
  let endConnection: (() => void) | undefined

  const connect = (): void => {
    let ended = false
    let rpcClient: Awaited<ReturnType<typeof transport.getRpcClient>> | undefined
    let heartbeat: NodeJS.Timeout | undefined

    const end = (reason: string, cause?: unknown): void => {
      if (ended) return
      ended = true
      clearTimeout(deadline)
      clearInterval(heartbeat)
      rpcClient?.close()
      if (stopped) return
      failures += 1
      const retryInMs = Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (failures - 1))
      onChange({ state: 'connecting', endpoint, error: new NewHeadsError({ endpoint, reason, cause }), retryInMs })
      retryTimer = setTimeout(connect, retryInMs)
    }
    const fail = (error: unknown): void => end(describeCause(error), error)
    endConnection = () => end('stopped')
    const deadline = setTimeout(() => end(`no subscription within ${timeoutMs} ms`), timeoutMs)

    transport
      .getRpcClient()
      .then(async (client) => {
        rpcClient = client
        // Ended while the socket opened (deadline or stop): this socket was never ours to keep.
        if (ended) return client.close()
        await transport.subscribe({
          params: ['newHeads'],
          onData: ({ result }: { result?: { number?: unknown } }) => {
            if (ended || !isHex(result?.number, { strict: true })) return
            failures = 0
            onHead(hexToBigInt(result.number))
          },
          onError: fail,
        })
        if (ended) return
        clearTimeout(deadline)
        const keepAliveMs = Math.min(heartbeatMs, timeoutMs)
        heartbeat = setInterval(() => {
          client
            .requestAsync({ body: { method: 'net_version' }, timeout: keepAliveMs })
            .catch((error: unknown) => end(error instanceof TimeoutError ? `no answer to a keep-alive within ${keepAliveMs} ms` : describeCause(error), error))
        }, heartbeatMs)
        onChange({ state: 'subscribed', endpoint })
      })
      .catch(fail)
  }

  connect()
  return {
    async stop() {
      stopped = true
      clearTimeout(retryTimer)
      endConnection?.()
    },
  }
}

/** viem's errors carry a one-line `shortMessage`; a socket's error event and a JSON-RPC error a `message`. */
function describeCause(error: unknown): string {
  const { shortMessage, message } = (error ?? {}) as { shortMessage?: unknown; message?: unknown }
  const text = typeof shortMessage === 'string' ? shortMessage : typeof message === 'string' ? message : String(error)
  return text.replace(/\.$/, '')
}

/** The endpoint for logs: no credentials, path or query, which may carry an API key (…/v3/<key>). */
function describeEndpoint(url: string): string {
  const { protocol, host, pathname, search } = new URL(url)
  return `${protocol}//${host}${pathname === '/' && search === '' ? '' : '/…'}`
}
