import { freemem } from 'node:os'
import { BenchArgumentError } from '../errors/bench.ts'

export type AssertMemoryForParameters = { jobs: number }

/**
 * The bench's hardhat node keeps every block in memory: measured ~75 KB per transaction, ~2.1
 * transactions per job, on top of ~1 GB. Past what the machine has free the kernel kills a
 * process, perhaps someone else's, so a run that cannot fit is refused up front.
 */
const nodeBaseBytes = 1.5 * 2 ** 30
const bytesPerJob = 2.1 * 75 * 1024 + 10 * 1024

/** Throws when a run of `jobs` jobs would need more memory than is free now. */
export function assertMemoryFor({ jobs }: AssertMemoryForParameters): void {
  const needed = nodeBaseBytes + jobs * bytesPerJob
  const free = freemem()
  if (needed > free) {
    const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(1)} GiB`
    throw new BenchArgumentError(`--jobs ${jobs} needs about ${gib(needed)} of memory (mostly the hardhat node), but only ${gib(free)} is free.`)
  }
}
