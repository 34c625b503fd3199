import { freemem } from 'node:os'
import { BenchArgumentError } from '../errors/bench.ts'

export type AssertMemoryForParameters = { jobs: number }

/**
 * The bench's hardhat node keeps its whole history in memory: measured ~400 KB per generated
 * job (8 GB at 20,000 jobs), on top of ~1.5 GB, plus ~10 KB per job for the server under test.
 * Past what the machine has free the kernel kills a process, perhaps someone else's (it killed
 * the node at 24 GB during a 100,000-job run), so a run that cannot fit is refused up front.
 */
const nodeBaseBytes = 1.5 * 2 ** 30
const bytesPerJob = 410 * 1024

/** Throws when a run of `jobs` jobs would need more memory than is free now. */
export function assertMemoryFor({ jobs }: AssertMemoryForParameters): void {
  const needed = nodeBaseBytes + jobs * bytesPerJob
  const free = freemem()
  if (needed > free) {
    const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(1)} GiB`
    throw new BenchArgumentError(`--jobs ${jobs} needs about ${gib(needed)} of memory (mostly the hardhat node), but only ${gib(free)} is free.`)
  }
}
