import {
  type Address,
  type Client,
  type Hash,
  type Hex,
  decodeFunctionData,
  isAddressEqual,
  keccak256,
} from 'viem'
import { getTransaction } from 'viem/actions'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { JobInputUnreadableError } from '../../errors/seller.ts'

export type ReadJobInputParameters = {
  escrow: Address
  jobId: bigint
  /** The transaction that emitted the job's `JobCreated`. */
  transactionHash: Hash
  /** The job's `inputCommitment`: the bytes read must hash to it. */
  inputCommitment: Hex
}

/** The job's `encryptedInput` bytes as 0x hex. */
export type ReadJobInputReturnType = Hex

/**
 * Reads a job's input from the calldata of its `createJob` transaction: the escrow keeps only
 * the commitment. Throws `JobInputUnreadableError` when the transaction is not a direct
 * `createJob` call on the escrow (a contract calling it leaves nothing to decode here) or the
 * bytes do not match the commitment.
 */
export async function readJobInput(
  client: Client,
  { escrow, jobId, transactionHash, inputCommitment }: ReadJobInputParameters,
): Promise<ReadJobInputReturnType> {
  const transaction = await getTransaction(client, { hash: transactionHash })
  if (transaction.to === null || !isAddressEqual(transaction.to, escrow)) {
    throw new JobInputUnreadableError(jobId, `transaction ${transactionHash} is not a call to the escrow`)
  }
  let input: Hex
  try {
    const call = decodeFunctionData({ abi: escrowAbi, data: transaction.input })
    if (call.functionName !== 'createJob') throw new Error(`it calls ${call.functionName}`)
    input = call.args[1]
  } catch (cause) {
    throw new JobInputUnreadableError(jobId, `transaction ${transactionHash} is not a createJob call`, { cause })
  }
  if (keccak256(input) !== inputCommitment.toLowerCase()) {
    throw new JobInputUnreadableError(jobId, `the calldata of ${transactionHash} does not match the inputCommitment`)
  }
  return input
}
