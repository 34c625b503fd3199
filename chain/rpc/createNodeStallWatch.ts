import type { DeadlineExchangeEnd } from './createDeadlineFetch.ts'

/** A node that leaves a request unanswered: one in flight past the stall threshold, or the last one ended at its deadline. */
export type NodeStall = {
  /** The node, without credentials. */
  url: string
  /** The JSON-RPC methods of the request it holds (or held until the deadline). */
  methods: readonly string[]
  /** When that request was sent, epoch milliseconds. */
  since: number
  /** True once the request ended at its deadline, until the node answers one in full. */
  timedOut: boolean
}

export type CreateNodeStallWatchParameters = {
  /** The node, without credentials. */
  url: string
  /** A request unanswered for this long makes the node stalled (a fraction of the deadline: named before it passes). */
  stallAfterMs: number
  /** Every time the node's stall may have begun, changed or ended. */
  onChange: () => void
  now?: () => number
}

export type NodeStallWatch = {
  /** Give to createDeadlineFetch as its `onExchange`. */
  onExchange: (exchange: { methods: readonly string[] }) => (end: DeadlineExchangeEnd) => void
  /** The node's stall now; undefined while it answers. */
  stall: () => NodeStall | undefined
}

/** Watches one node's exchanges for the health record: which node holds a request, since when. */
export function createNodeStallWatch({ url, stallAfterMs, onChange, now = Date.now }: CreateNodeStallWatchParameters): NodeStallWatch {
  // Insertion order is sending order: the first is the oldest.
  const inFlight = new Set<{ since: number; methods: readonly string[] }>()
  let timedOut: { since: number; methods: readonly string[] } | undefined

  return {
    onExchange({ methods }) {
      const exchange = { since: now(), methods }
      inFlight.add(exchange)
      const timer = setTimeout(onChange, stallAfterMs)
      timer.unref()
      return (end) => {
        clearTimeout(timer)
        inFlight.delete(exchange)
        if (end === 'timeout') timedOut = exchange
        // A refused or reset request says nothing of whether the node answers: a stall stays until an answer.
        else if (end === 'answered') timedOut = undefined
        onChange()
      }
    },
    stall() {
      const oldest = inFlight.values().next().value
      if (oldest !== undefined && now() - oldest.since >= stallAfterMs) return { url, methods: oldest.methods, since: oldest.since, timedOut: false }
      return timedOut === undefined ? undefined : { url, methods: timedOut.methods, since: timedOut.since, timedOut: true }
    },
  }
}
