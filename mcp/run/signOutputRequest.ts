import type { Hex, LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { type OutputRequest, outputRequestHeaders, outputRequestMessage, outputRequestValiditySec } from '../../contract/outputRequestMessage.ts'

export type SignOutputRequestParameters = Omit<OutputRequest, 'expires'> & {
  /** Unix seconds; a minute from now unless given. */
  expires?: number
}

/** The request headers that prove the buyer asks, now: its signature and the signature's expiry. */
export type SignOutputRequestReturnType = Record<(typeof outputRequestHeaders)[keyof typeof outputRequestHeaders], string>

/** Signs, as the job's buyer, the request for a job's output (see the reference seller's `serveOutputs.ts`). */
export async function signOutputRequest(
  account: LocalAccount | Hex,
  { expires = Math.floor(Date.now() / 1_000) + outputRequestValiditySec.signed, ...request }: SignOutputRequestParameters,
): Promise<SignOutputRequestReturnType> {
  const buyer = typeof account === 'string' ? privateKeyToAccount(account) : account
  const signature = await buyer.signMessage({ message: outputRequestMessage({ ...request, expires }) })
  return { [outputRequestHeaders.signature]: signature, [outputRequestHeaders.expires]: String(expires) }
}
