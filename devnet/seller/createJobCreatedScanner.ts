import type { Address, PublicClient } from 'viem'
import { describeFirstLine } from './describeFirstLine.ts'
import { type JobCreatedRecord, scanJobCreated } from './scanJobCreated.ts'

export type JobCreatedScanner = {
  /** Scans from where the last scan stopped up to the head; failures are logged once and retried. */
  scan: () => Promise<void>
  /** The jobs found and not answered yet, by id. */
  pending: Map<bigint, JobCreatedRecord>
  /** The first block the next scan reads. */
  readonly nextBlock: bigint
}

/** Node errors that mean "ask for fewer blocks" (wording differs between providers). */
const rangeErrorPattern = /range|too large|too many|limit|exceed/i

export type CreateJobCreatedScannerParameters = {
  escrow: Address
  serviceIds: readonly bigint[]
  fromBlock: bigint
  maxBlockRange: bigint
  isStopped: () => boolean
  log: (line: string) => void
}

/** Follows JobCreated of the seller's services in ranges of at most `maxBlockRange`, halved while the node refuses a range. */
export function createJobCreatedScanner(
  publicClient: PublicClient,
  { escrow, serviceIds, fromBlock, maxBlockRange, isStopped, log }: CreateJobCreatedScannerParameters,
): JobCreatedScanner {
  const pending = new Map<bigint, JobCreatedRecord>()
  let lastScanError: string | undefined
  let nextBlock = fromBlock
  let blockRange = maxBlockRange > 0n ? maxBlockRange : 1n
  return {
    pending,
    get nextBlock() {
      return nextBlock
    },
    async scan() {
      try {
        const head = await publicClient.getBlockNumber({ cacheTime: 0 })
        while (!isStopped() && nextBlock <= head) {
          const toBlock = nextBlock + blockRange - 1n < head ? nextBlock + blockRange - 1n : head
          const jobs = await scanJobCreated(publicClient, { escrow, serviceIds, fromBlock: nextBlock, toBlock })
          for (const job of jobs) if (!pending.has(job.jobId)) pending.set(job.jobId, job)
          nextBlock = toBlock + 1n
        }
        lastScanError = undefined
      } catch (error) {
        const message = describeFirstLine(error)
        if (rangeErrorPattern.test(message) && blockRange > 1n) blockRange /= 2n
        if (message !== lastScanError) log(`scan from block ${nextBlock} failed, retrying: ${message}`)
        lastScanError = message
      }
    },
  }
}
