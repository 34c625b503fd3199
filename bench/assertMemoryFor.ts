import { freemem } from 'node:os'
import { BenchArgumentError } from '../errors/bench.ts'

export type AssertMemoryForParameters = { jobs: number }

/**
 * Peak RSS of the bench's hardhat node (with bench/hardhat.config.cjs), measured: 0.74 GB at
 * 2,000 jobs, 0.88 GB at 10,000, 4.1 GB at 100,000 (2.5 GB after generation: blocks, receipts
 * and state, ~24 KB a job; the rest while the indexer reads 291,539 logs back).
 */
const nodeBaseBytes = 2 ** 30
const nodeBytesPerJob = 40 * 1024
/** The server under test (RSS 0.7 GB with 100,000 jobs indexed) and the bench process's plan of every job. */
const othersBytesPerJob = 20 * 1024

/**
 * Throws when a run of `jobs` jobs would need more memory than is available now. Past that the
 * kernel kills a process, perhaps someone else's, so such a run is refused up front.
 */
export function assertMemoryFor({ jobs }: AssertMemoryForParameters): void {
  const node = nodeBaseBytes + jobs * nodeBytesPerJob
  const needed = node + jobs * othersBytesPerJob
  const available = freemem()
  if (needed > available) {
    const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(1)} GiB`
    throw new BenchArgumentError(
      `--jobs ${jobs} needs about ${gib(needed)} of memory (${gib(node)} of it for the hardhat node), but only ${gib(available)} is available.`,
    )
  }
}
