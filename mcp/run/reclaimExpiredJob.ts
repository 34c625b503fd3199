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
import { untilAborted } from './untilAborted.ts'

export type ReclaimExpiredJobParameters = {
  account: PrivateKeyAccount
  escrow: Address
  jobId: bigint
  /** Longest wait for the refund's receipt (default 120,000 ms); each request also has the client's own deadline. */
  receiptTimeoutMs?: number | undefined
  /** Stops the refund's simulation, sending or receipt wait at once (the caller cancelled): rejects with the signal's reason. */
  signal?: AbortSignal | undefined
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
  { account, escrow, jobId, receiptTimeoutMs = 120_000, signal }: ReclaimExpiredJobParameters,
): Promise<ReclaimExpiredJobReturnType> {
  try {
    const { request } = await untilAborted(
      simulateContract(client, { account, address: escrow, abi: escrowAbi, functionName: 'reclaimExpired', args: [jobId] }),
      signal,
    )
    const hash = await untilAborted(writeContract(client, request), signal)
    const receipt = await untilAborted(waitForTransactionReceipt(client, { hash, timeout: receiptTimeoutMs }), signal)
    return receipt.status === 'success' ? hash : null
  } catch (error) {
    const reverted =
      error instanceof ViemBaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null
    const errorName = reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined
    if (!signal?.aborted && (notNow as readonly string[]).includes(errorName ?? '')) return null
    throw error
  }
}
