import {
  type Address,
  type Hash,
  type PrivateKeyAccount,
  type Client,
  RpcError,
  RpcRequestError,
  type TransactionReceipt,
  type TransactionSerializable,
  BaseError as ViemBaseError,
  keccak256,
  parseEventLogs,
} from 'viem'
import { getBlockNumber, getContractEvents, sendRawTransaction, waitForTransactionReceipt } from 'viem/actions'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { CreateJobRevertedError, CreateJobUnconfirmedError } from '../../errors/run.ts'

export type SendCreateJobParameters = {
  account: PrivateKeyAccount
  escrow: Address
  /** Filled by `prepareCreateJob`. */
  request: TransactionSerializable
  /** How long to wait for the receipt before looking the job up another way. */
  receiptTimeoutMs?: number
  /** How far back the fallback lookup searches for the job's `JobCreated` log. */
  lookbackBlocks?: bigint
}

export type SendCreateJobReturnType = {
  jobId: bigint
  transactionHash: Hash
}

/**
 * Signs and sends `createJob` exactly once. The hash is known before sending, so a lost answer
 * or a lost receipt is looked up (by hash, then by the buyer's `JobCreated` logs), never resent:
 * one call can never create two jobs.
 */
export async function sendCreateJob(
  client: Client,
  { account, escrow, request, receiptTimeoutMs = 120_000, lookbackBlocks = 1_000n }: SendCreateJobParameters,
): Promise<SendCreateJobReturnType> {
  const serializedTransaction = await account.signTransaction(request)
  const transactionHash = keccak256(serializedTransaction)
  try {
    await sendRawTransaction(client, { serializedTransaction })
  } catch (error) {
    // A JSON-RPC error is the node saying no (the transaction is not in its pool), unless it
    // says it already has it. Anything else (connection lost, timeout) leaves it unknown.
    if (isRejection(error)) throw error
  }

  let receipt: TransactionReceipt | undefined
  try {
    receipt = await waitForTransactionReceipt(client, { hash: transactionHash, timeout: receiptTimeoutMs })
  } catch (cause) {
    const jobId = await findJobCreated(client, {
      escrow,
      buyer: account.address,
      transactionHash,
      lookbackBlocks,
    }).catch(() => undefined)
    if (jobId !== undefined) return { jobId, transactionHash }
    throw new CreateJobUnconfirmedError({ transactionHash, cause })
  }
  if (receipt.status !== 'success') throw new CreateJobRevertedError({ transactionHash })
  const [created] = parseEventLogs({ abi: escrowAbi, eventName: 'JobCreated', logs: receipt.logs })
  if (created === undefined) throw new CreateJobUnconfirmedError({ transactionHash })
  return { jobId: created.args.jobId, transactionHash }
}

function isRejection(error: unknown): boolean {
  if (!(error instanceof ViemBaseError)) return false
  if (/already known|already imported|known transaction/i.test(error.message)) return false
  return error.walk((cause) => cause instanceof RpcError || cause instanceof RpcRequestError) !== null
}

async function findJobCreated(
  client: Client,
  {
    escrow,
    buyer,
    transactionHash,
    lookbackBlocks,
  }: { escrow: Address; buyer: Address; transactionHash: Hash; lookbackBlocks: bigint },
): Promise<bigint | undefined> {
  const head = await getBlockNumber(client)
  const logs = await getContractEvents(client, {
    address: escrow,
    abi: escrowAbi,
    eventName: 'JobCreated',
    args: { buyer },
    fromBlock: head > lookbackBlocks ? head - lookbackBlocks : 0n,
    toBlock: head,
  })
  return logs.find((log) => log.transactionHash === transactionHash)?.args.jobId
}
