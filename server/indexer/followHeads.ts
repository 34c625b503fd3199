import { WebSocket } from 'ws'
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
  /** Longest wait for the socket to open and the node to confirm the subscription. */
  timeoutMs?: number | undefined
  /**
   * Ping period: a connection whose pong does not come back before the next ping is dropped and
   * made again (a peer that vanished without closing, e.g. behind a NAT, never sends a close).
   */
  heartbeatMs?: number | undefined
}

export type HeadFollower = {
  /** Closes the socket; no reconnect follows. */
  stop(): Promise<void>
}

const subscribeRequestId = 1

type SubscriptionMessage = {
  id?: unknown
  result?: unknown
  error?: { message?: unknown }
  method?: unknown
  params?: { subscription?: unknown; result?: { number?: unknown } }
}

/**
 * Subscribes to `newHeads` over a WebSocket and reports every head. A failed attempt, a closed
 * socket, a refused subscription or a missed pong ends the connection and another is made after
 * a capped exponential backoff, forever until `stop`. The backoff resets only once a head came
 * through, so an endpoint that accepts and then drops at once is not hammered.
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
  let stopped = false
  let failures = 0
  let retryTimer: NodeJS.Timeout | undefined
  let socket: WebSocket | undefined

  const connect = (): void => {
    const current = new WebSocket(url, { handshakeTimeout: timeoutMs })
    socket = current
    let ended = false
    let subscription: string | undefined
    let pongDue = false
    let heartbeat: NodeJS.Timeout | undefined

    const end = (reason: string, cause?: unknown): void => {
      if (ended) return
      ended = true
      clearTimeout(deadline)
      clearInterval(heartbeat)
      current.terminate()
      if (stopped) return
      failures += 1
      const retryInMs = Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (failures - 1))
      onChange({ state: 'connecting', endpoint, error: new NewHeadsError({ endpoint, reason, cause }), retryInMs })
      retryTimer = setTimeout(connect, retryInMs)
    }
    const deadline = setTimeout(() => end(`no subscription within ${timeoutMs} ms`), timeoutMs)

    current.on('open', () => {
      current.send(JSON.stringify({ jsonrpc: '2.0', id: subscribeRequestId, method: 'eth_subscribe', params: ['newHeads'] }))
      heartbeat = setInterval(() => {
        if (pongDue) {
          end(`no pong within ${heartbeatMs} ms`)
          return
        }
        // Closing already: the close event ends this connection.
        if (current.readyState !== WebSocket.OPEN) return
        pongDue = true
        current.ping()
      }, heartbeatMs)
    })
    current.on('pong', () => {
      pongDue = false
    })
    current.on('message', (data) => {
      let message: SubscriptionMessage
      try {
        message = JSON.parse(data.toString()) as SubscriptionMessage
      } catch {
        return
      }
      if (message.id === subscribeRequestId) {
        if (typeof message.result !== 'string') {
          end(`eth_subscribe was refused (${String(message.error?.message ?? 'no subscription id')})`)
          return
        }
        subscription = message.result
        clearTimeout(deadline)
        onChange({ state: 'subscribed', endpoint })
        return
      }
      const number = message.params?.result?.number
      if (message.method !== 'eth_subscription' || subscription === undefined) return
      if (message.params?.subscription !== subscription) return
      if (typeof number !== 'string' || !/^0x[0-9a-fA-F]+$/.test(number)) return
      failures = 0
      onHead(BigInt(number))
    })
    current.on('error', (error) => end(error.message, error))
    current.on('close', (code) => end(`the socket closed (code ${code})`))
  }

  connect()
  return {
    async stop() {
      stopped = true
      clearTimeout(retryTimer)
      if (socket === undefined || socket.readyState === WebSocket.CLOSED) return
      const closed = new Promise((resolve) => socket?.once('close', resolve))
      socket.terminate()
      await closed
    },
  }
}

/** The endpoint for logs: no credentials, path or query, which may carry an API key (…/v3/<key>). */
function describeEndpoint(url: string): string {
  const { protocol, host, pathname, search } = new URL(url)
  return `${protocol}//${host}${pathname === '/' && search === '' ? '' : '/…'}`
}
