export type CallWindowParameters = {
  /** Calls allowed per `spanMs`; `Infinity` for no limit. */
  limit: number
  /** The span a node counts its calls in (default 1,000 ms). */
  spanMs?: number
}

export type CallWindowSlot = {
  /** Ends the call: its slot is free again `spanMs` after this. */
  release: () => void
  /** Whether the call had to wait for a slot or for a pause to end. */
  waited: boolean
}

export type CallWindow = {
  /** Resolves when a call may be sent (in order of asking; `first` for a call sent again, ahead of new ones). */
  take: (options?: { first?: boolean }) => Promise<CallWindowSlot>
  /** Calls allowed per span from now on (`Infinity` for no limit). */
  limit: number
  /** Holds every call not yet sent until `until` (a `performance.now()` time); a later pause wins. */
  pause: (until: number) => void
  readonly pausedUntil: number
  /** Calls in flight plus calls answered within the last span: what the node may count now. */
  readonly occupied: number
}

/**
 * A strict sliding window of calls, as a node that counts calls per second sees them. A call holds
 * its slot from the moment it is sent until one span after its answer, not after it was sent: when
 * answers come back at different speeds, a node could otherwise see more than `limit` calls arrive
 * within one span, although we sent them a span apart.
 */
export function createCallWindow({ limit: initialLimit, spanMs = 1_000 }: CallWindowParameters): CallWindow {
  let limit = initialLimit
  let inFlight = 0
  /** When the slots of answered calls were released, oldest first. */
  const released: number[] = []
  let pausedUntil = 0
  const waiting: ((slot: CallWindowSlot) => void)[] = []
  let timer: ReturnType<typeof setTimeout> | undefined

  const occupied = (now: number): number => {
    while (released.length > 0 && (released[0] as number) <= now - spanMs) released.shift()
    return inFlight + released.length
  }

  const wakeIn = (ms: number): void => {
    timer = setTimeout(grant, Math.max(1, Math.ceil(ms)))
  }

  const release = (): void => {
    inFlight -= 1
    released.push(performance.now())
    grant()
  }

  function grant(): void {
    clearTimeout(timer)
    timer = undefined
    while (waiting.length > 0) {
      const now = performance.now()
      if (now < pausedUntil) return wakeIn(pausedUntil - now)
      if (occupied(now) >= limit) {
        // All slots in flight: the next release wakes us.
        if (released.length > 0) wakeIn((released[0] as number) + spanMs - now)
        return
      }
      inFlight += 1
      ;(waiting.shift() as (slot: CallWindowSlot) => void)({ release: once(release), waited: true })
    }
  }

  return {
    take: ({ first = false } = {}) => {
      const now = performance.now()
      if (waiting.length === 0 && now >= pausedUntil && occupied(now) < limit) {
        inFlight += 1
        return Promise.resolve({ release: once(release), waited: false })
      }
      return new Promise((resolve) => {
        if (first) waiting.unshift(resolve)
        else waiting.push(resolve)
        if (timer === undefined) grant()
      })
    },
    get limit() {
      return limit
    },
    set limit(value) {
      limit = value
      grant()
    },
    pause: (until) => {
      pausedUntil = Math.max(pausedUntil, until)
      if (waiting.length > 0) grant()
    },
    get pausedUntil() {
      return pausedUntil
    },
    get occupied() {
      return occupied(performance.now())
    },
  }
}

/** A release called twice (an answer and a late abort) must free one slot, not two. */
function once(release: () => void): () => void {
  let done = false
  return () => {
    if (done) return
    done = true
    release()
  }
}
