/**
 * Milliseconds on the machine's monotonic clock (CLOCK_MONOTONIC, as `process.hrtime` reads it):
 * the same clock in every process, so a time taken in the server and one taken in the bench
 * compare directly, unlike `performance.now()`, whose origin is each process's start.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6
}
