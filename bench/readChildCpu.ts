import type { BenchChild } from './spawnBenchChild.ts'

/** A child's CPU time so far (user + system, µs), asked over IPC. */
export async function readChildCpu<message extends { type: string }>(child: BenchChild<message | { type: 'cpu'; micros: number }>): Promise<number> {
  child.send({ type: 'cpu' })
  const { micros } = (await child.next('cpu', 30_000)) as { micros: number }
  return micros
}
