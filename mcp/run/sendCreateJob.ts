import {
  type Address,
  type Hash,
  type Hex,
  type Client,
  RpcError,
  RpcRequestError,
  type TransactionReceipt,
  TransactionNotFoundError,
  BaseError as ViemBaseError,
  keccak256,
  parseEventLogs,
} from 'viem'
import {
  getBlockNumber,
  getContractEvents,
  getTransaction,
  sendRawTransaction,
  waitForTransactionReceipt,
} from 'viem/actions'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { CreateJobRejectedError, CreateJobRevertedError, CreateJobUnconfirmedError } from '../../errors/run.ts'

export type SendCreateJobParameters = {
  escrow: Address
  /** Who signed it: whose `JobCreated` logs the fallback lookup reads. */
  buyer: Address
  /** The signed createJob: what `prepareCreateJob` filled, signed by the buyer's account. */
  serializedTransaction: Hex
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
 * Sends a signed `createJob` exactly once. The hash is known before sending, so a lost answer
 * or a lost receipt is looked up (by hash, then by the buyer's `JobCreated` logs), never resent:
 * one call can never create two jobs. Sending the same bytes again later is safe for the same
 * reason: one hash is mined once at most.
 */
export async function sendCreateJob(
  client: Client,
  { escrow, buyer, serializedTransaction, receiptTimeoutMs = 120_000, lookbackBlocks = 1_000n }: SendCreateJobParameters,
): Promise<SendCreateJobReturnType> {
  const transactionHash = keccak256(serializedTransaction)
  try {
    await sendRawTransaction(client, { serializedTransaction })
  } catch (error) {
    // The node said no, and does not hold the transaction: nothing was spent. A lost answer, or
    // a "nonce too low" to a transport retry of a send that went through, ends up below.
    if (isRejection(error) && !(await isKnown(client, transactionHash))) {
      throw new CreateJobRejectedError({ reason: shortMessageOf(error), cause: error })
    }
  }

  // From here on the transaction is, or may be, in the node's hands: look it up, never resend.
  let receipt: TransactionReceipt | undefined
  try {
    receipt = await waitForTransactionReceipt(client, { hash: transactionHash, timeout: receiptTimeoutMs })
  } catch (cause) {
    const jobId = await findJobCreated(client, {
      escrow,
      buyer,
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

/** The node answered with a JSON-RPC error (as opposed to no answer at all). */
function isRejection(error: unknown): boolean {
  return (
    error instanceof ViemBaseError &&
    error.walk((cause) => cause instanceof RpcError || cause instanceof RpcRequestError) !== null
  )
}

async function isKnown(client: Client, hash: Hash): Promise<boolean> {
  try {
    await getTransaction(client, { hash })
    return true
  } catch (error) {
    // Only a clear "no such transaction" rules it out; if we cannot tell, assume it was sent.
    return !(error instanceof TransactionNotFoundError)
  }
}

/** The node's own words when it gave any (viem keeps them as `details`), on one short line. */
function shortMessageOf(error: unknown): string {
  const message = error instanceof ViemBaseError ? error.details || error.shortMessage : String(error)
  const line = (message.split('\n')[0] ?? '').replace(/\.$/, '')
  return line.length > 200 ? `${line.slice(0, 200)}…` : line
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
