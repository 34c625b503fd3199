import type { PublicClient } from 'viem'
import { createJobCreatedScanner, type CreateJobCreatedScannerParameters } from './createJobCreatedScanner.ts'
import type { SellerStore } from './createSellerStore.ts'
import type { JobSource } from './JobSource.ts'

/** The default source: JobCreated logs of the seller's services scanned on its own node, the scan position kept in the state file. */
export function createChainJobSource(publicClient: PublicClient, { store, ...scanning }: CreateJobCreatedScannerParameters & { store: SellerStore }): JobSource {
  const scanner = createJobCreatedScanner(publicClient, scanning)
  return {
    pending: scanner.pending,
    refresh: scanner.scan,
    save() {
      // Resume where no job can be missed: the oldest job still queued, else past the scan.
      let resume = scanner.nextBlock
      for (const job of scanner.pending.values()) if (job.blockNumber < resume) resume = job.blockNumber
      store.setResumeBlock(resume)
    },
    stop: async () => {},
  }
}
