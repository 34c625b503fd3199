import type { Client } from 'viem'
import { PollStalledError } from '../../errors/chain.ts'

export type CreatePollWatchdogParameters = {
  /** The poll is abandoned once it has had requests in flight and none settled for this long. */
  stallMs: number
  /**
   * How much longer the nodes asked to be left alone (a rate limit's `Retry-After`): requests
   * waiting that out are not stalled, so the watchdog waits it out too. 0 when none did.
   */
  heldForMs?: () => number
}

export type PollWatchdog = {
  /** The client the poll reads through: once the watchdog fires, its requests in flight and to come fail with PollStalledError. */
  client: Client
  /** The poll is over: the watchdog stops. */
  stop: () => void
}

/**
 * One poll's watchdog. Every request already has a deadline, but a poll is many requests, some
 * held by the rate limiter, some handed from node to node: the watchdog fires when requests are in
 * flight and none of them settled for `stallMs` (plus any wait a node asked for), and then fails
 * them all, so the poll ends through its failure path (recorded, retried with backoff) and never
 * holds the loop. Time with nothing in flight (applying logs, a commit) is not counted. It
 * interrupts the poll rather than leaving it running beside the next one: two polls must not
 * write the store at once.
 */
export function createPollWatchdog(client: Client, { stallMs, heldForMs = () => 0 }: CreatePollWatchdogParameters): PollWatchdog {
  const controller = new AbortController()
  const { signal } = controller
  // One listener for every request in flight, not one each: a poll has dozens at once, and Node
  // warns of a leak past ten listeners on a signal.
  const inFlight = new Set<(reason: Error) => void>()
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  const fire = (): void => {
    const held = heldForMs()
    if (held > 0) timer = setTimeout(fire, held + stallMs)
    else controller.abort(new PollStalledError({ stallMs }))
  }
  const rearm = (): void => {
    clearTimeout(timer)
    if (!stopped && !signal.aborted && inFlight.size > 0) timer = setTimeout(fire, stallMs)
  }
  signal.addEventListener('abort', () => {
    for (const abandon of inFlight) abandon(signal.reason as Error)
    inFlight.clear()
  }, { once: true })
  // Typed loosely: the guard passes any request through unchanged.
  const send = client.request as (args: unknown, options: unknown) => Promise<unknown>
  const request = (args: unknown, options: unknown): Promise<unknown> => {
    if (signal.aborted) return Promise.reject(signal.reason as Error)
    return new Promise((resolve, reject) => {
      inFlight.add(reject)
      if (inFlight.size === 1) rearm()
      send(args, options).then(resolve, reject).finally(() => {
        inFlight.delete(reject)
        rearm()
      })
    })
  }
  return {
    client: { ...dataOf(client), request } as unknown as Client,
    stop() {
      stopped = true
      clearTimeout(timer)
    },
  }
}

/**
 * The client's settings without its bound actions: a public client's `getBlock` and the rest are
 * bound to the client they were made on, and viem's actions call them when present (getAction),
 * which would bypass the guarded `request`.
 */
function dataOf(client: Client): Partial<Client> {
  return Object.fromEntries(Object.entries(client).filter(([, value]) => typeof value !== 'function')) as Partial<Client>
}
