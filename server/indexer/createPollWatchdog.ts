import type { Client } from 'viem'
import { PollStalledError } from '../../errors/chain.ts'

export type CreatePollWatchdogParameters = {
  /** The poll is abandoned once none of its requests settled for this long (and none ran). */
  stallMs: number
}

export type PollWatchdog = {
  /** The client the poll reads through: once the watchdog fires, its requests in flight and to come fail with PollStalledError. */
  client: Client
  /** The poll is over: the watchdog stops. */
  stop: () => void
}

/**
 * One poll's watchdog. Every request already has a deadline, but a poll is many requests, some
 * held by the rate limiter, some handed from node to node: the watchdog fires when none of them
 * settled for `stallMs`, and then fails them all, so the poll ends through its failure path
 * (recorded, retried with backoff) and never holds the loop. It interrupts the poll rather than
 * leaving it running beside the next one: two polls must not write the store at once.
 */
export function createPollWatchdog(client: Client, { stallMs }: CreatePollWatchdogParameters): PollWatchdog {
  const controller = new AbortController()
  const { signal } = controller
  const fire = (): void => controller.abort(new PollStalledError({ stallMs }))
  let timer = setTimeout(fire, stallMs)
  let stopped = false
  const rearm = (): void => {
    clearTimeout(timer)
    if (!stopped && !signal.aborted) timer = setTimeout(fire, stallMs)
  }
  // One listener for every request in flight, not one each: a poll has dozens at once, and Node
  // warns of a leak past ten listeners on a signal.
  const inFlight = new Set<(reason: Error) => void>()
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
