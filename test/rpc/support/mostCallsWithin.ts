import type { StubCall } from './startRpcStub.ts'

/** The most calls the stub received within any `spanMs` (a sliding window over arrival times). */
export function mostCallsWithin(calls: readonly StubCall[], spanMs = 1_000): number {
  const times = calls.map((call) => call.receivedAt).sort((a, b) => a - b)
  let most = 0
  for (let first = 0, last = 0; last < times.length; last += 1) {
    while ((times[last] as number) - (times[first] as number) >= spanMs) first += 1
    most = Math.max(most, last - first + 1)
  }
  return most
}
