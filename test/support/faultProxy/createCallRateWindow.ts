export type CreateCallRateWindowParameters = {
  /** Calls served in any window of `windowMs`. */
  limit: number
  windowMs?: number
  now?: () => number
}

export type CallRateWindow = {
  /** Records `calls` arriving together; true when all of them fit under the limit (then they are served). */
  admit: (calls: number) => boolean
  /** Most calls that arrived, served or not, in any window so far. */
  peak: () => number
}

/**
 * A sliding-window rate limit. Only served calls use up the allowance, as with a provider's
 * token bucket: a client that waits out `Retry-After` gets through, one that keeps hammering
 * keeps being refused without locking itself out for longer.
 */
export function createCallRateWindow({ limit, windowMs = 1_000, now = () => performance.now() }: CreateCallRateWindowParameters): CallRateWindow {
  const served: number[] = []
  const arrived: number[] = []
  let peak = 0
  const expire = (times: number[], at: number): void => {
    while (times.length > 0 && (times[0] as number) <= at - windowMs) times.shift()
  }
  return {
    admit: (calls) => {
      const at = now()
      expire(served, at)
      expire(arrived, at)
      for (let call = 0; call < calls; call += 1) arrived.push(at)
      // The count over a sliding window only rises when calls arrive, so its maximum is seen here.
      peak = Math.max(peak, arrived.length)
      if (served.length + calls > limit) return false
      for (let call = 0; call < calls; call += 1) served.push(at)
      return true
    },
    peak: () => peak,
  }
}
