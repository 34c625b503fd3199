import type { Address, Hash, PublicClient } from 'viem'
import { escrowAbi } from '../../chain/abi/escrow.ts'

export type ScanJobCreatedParameters = {
  escrow: Address
  serviceIds: readonly bigint[]
  fromBlock: bigint
  toBlock: bigint
}

export type JobCreatedRecord = {
  jobId: bigint
  serviceId: bigint
  blockNumber: bigint
  /** The createJob transaction: its calldata holds the prompt. */
  transactionHash: Hash
}

export type ScanJobCreatedReturnType = JobCreatedRecord[]

/** The `JobCreated` events of the given services in one block range, oldest first. */
export async function scanJobCreated(
  client: PublicClient,
  { escrow, serviceIds, fromBlock, toBlock }: ScanJobCreatedParameters,
): Promise<ScanJobCreatedReturnType> {
  const logs = await client.getContractEvents({
    address: escrow,
    abi: escrowAbi,
    eventName: 'JobCreated',
    // serviceId is indexed: the node filters on it (a list is an OR).
    args: { serviceId: [...serviceIds] },
    fromBlock,
    toBlock,
    strict: true,
  })
  return logs.map((log) => ({
    jobId: log.args.jobId,
    serviceId: log.args.serviceId,
    blockNumber: log.blockNumber,
    transactionHash: log.transactionHash,
  }))
}
