import { readFileSync } from 'node:fs'
import { freemem } from 'node:os'
import { BenchArgumentError } from '../errors/bench.ts'
import type { BenchNode } from './parseBenchArgs.ts'

export type AssertMemoryForParameters = { jobs: number; node: BenchNode }

/**
 * Peak RSS of the bench's node, measured.
 * - hardhat (with bench/hardhat.config.cjs): 0.74 GB at 2,000 jobs, 0.88 GB at 10,000, 4.1 GB at
 *   100,000 (2.5 GB after generation: blocks, receipts and state, ~24 KB a job; the rest while the
 *   indexer reads 291,539 logs back).
 * - anvil (bench/startAnvilChain.ts): 236 MB at 10,000 jobs, 1.55 GB at 100,000, 15.2 GB at
 *   1,000,000 (15.6 KB a job, most of it the call traces it keeps of every transaction).
 */
const nodeMemory: Record<BenchNode, { baseBytes: number; bytesPerJob: number }> = {
  hardhat: { baseBytes: 2 ** 30, bytesPerJob: 40 * 1024 },
  anvil: { baseBytes: 2 ** 28, bytesPerJob: 16 * 1024 },
}
/**
 * The server under test (RSS 0.7 GB with 100,000 jobs indexed, 2.9 GB with 1,000,000) and the
 * bench process's plan of every job (3.6 GB at its peak while generating 1,000,000).
 */
const othersBytesPerJob = 5 * 1024

/**
 * Throws when a run of `jobs` jobs would need more memory than is available now. Past that the
 * kernel kills a process, perhaps someone else's, so such a run is refused up front.
 */
export function assertMemoryFor({ jobs, node: kind }: AssertMemoryForParameters): void {
  const node = nodeMemory[kind].baseBytes + jobs * nodeMemory[kind].bytesPerJob
  const needed = node + jobs * othersBytesPerJob
  const available = availableMemory()
  if (needed > available) {
    const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(1)} GiB`
    throw new BenchArgumentError(
      `--jobs ${jobs} needs about ${gib(needed)} of memory (${gib(node)} of it for the ${kind} node), but only ${gib(available)} is available.`,
    )
  }
}

/** Linux's MemAvailable (free memory and the page cache it can drop), where there is one; free memory elsewhere. */
function availableMemory(): number {
  try {
    const kib = /^MemAvailable:\s+(\d+) kB$/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]
    if (kib !== undefined) return Number(kib) * 1024
  } catch {
    // No /proc: not Linux.
  }
  return freemem()
}
