import type { Address, PublicClient } from 'viem'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import type { SellerOutput, SellerStore } from './createSellerStore.ts'

export type SettleRecordedOutputParameters = {
  escrow: Address
  store: SellerStore
  jobId: bigint
}

/** The recorded output, now marked settled; undefined when the chain does not hold it (yet). */
export type SettleRecordedOutputReturnType = SellerOutput | undefined

/**
 * Marks a recorded, not yet settled output as settled when the chain already holds its
 * outputRootHash for the job: the attestation was mined but the seller has not seen the receipt
 * yet (or lost it in a restart). Lets the output endpoint answer as soon as the job settles.
 */
export async function settleRecordedOutput(
  client: PublicClient,
  { escrow, store, jobId }: SettleRecordedOutputParameters,
): Promise<SettleRecordedOutputReturnType> {
  const recorded = store.getOutput(jobId)
  if (recorded === undefined) return undefined
  if (recorded.settled) return recorded
  const job = await client.readContract({ address: escrow, abi: escrowAbi, functionName: 'getJob', args: [jobId] })
  if (job.outputRootHash !== recorded.outputRootHash) return undefined
  const settled = { ...recorded, settled: true }
  store.putOutput(settled)
  return settled
}
