import {
  type Address,
  type Client,
  type ContractErrorName,
  ContractFunctionRevertedError,
  type Hash,
  type PrivateKeyAccount,
  BaseError as ViemBaseError,
} from 'viem'
import { simulateContract, waitForTransactionReceipt, writeContract } from 'viem/actions'
import { escrowAbi } from '../../chain/abi/escrow.ts'

export type ReclaimExpiredJobParameters = {
  account: PrivateKeyAccount
  escrow: Address
  jobId: bigint
}

/**
 * The refund transaction; null when the escrow says not yet (`NotExpired`: the chain's clock is
 * behind) or no longer (`NotPending`: the seller settled at the last moment), so the caller
 * polls again.
 */
export type ReclaimExpiredJobReturnType = Hash | null

const notNow: readonly ContractErrorName<typeof escrowAbi>[] = ['NotExpired', 'NotPending']

/** Calls `reclaimExpired` as the buyer, after a simulation shows it will go through. */
export async function reclaimExpiredJob(
  client: Client,
  { account, escrow, jobId }: ReclaimExpiredJobParameters,
): Promise<ReclaimExpiredJobReturnType> {
  try {
    const { request } = await simulateContract(client, {
      account,
      address: escrow,
      abi: escrowAbi,
      functionName: 'reclaimExpired',
      args: [jobId],
    })
    const hash = await writeContract(client, request)
    const receipt = await waitForTransactionReceipt(client, { hash })
    return receipt.status === 'success' ? hash : null
  } catch (error) {
    const reverted =
      error instanceof ViemBaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null
    const errorName = reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined
    if ((notNow as readonly string[]).includes(errorName ?? '')) return null
    throw error
  }
}
