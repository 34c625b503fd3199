import type { Hex, LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { outputRequestMessage } from './outputRequestMessage.ts'

export type SignOutputRequestParameters = { jobId: bigint }

/** The value of the `X-Buyer-Signature` header: 65 bytes r‖s‖v as 0x hex. */
export type SignOutputRequestReturnType = Hex

/** Signs, as the job's buyer, the request for a job's output (see `serveOutputs.ts`). */
export async function signOutputRequest(
  account: LocalAccount | Hex,
  { jobId }: SignOutputRequestParameters,
): Promise<SignOutputRequestReturnType> {
  const buyer = typeof account === 'string' ? privateKeyToAccount(account) : account
  return buyer.signMessage({ message: outputRequestMessage(jobId) })
}
