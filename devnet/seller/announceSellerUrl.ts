import type { Address, PublicClient } from 'viem'
import { inferenceServingAbi } from '../../chain/abi/inferenceServing.ts'
import { sendProviderRecord } from '../tee/sendProviderRecord.ts'

export type AnnounceSellerUrlParameters = {
  inferenceServing: Address
  /** The providers whose 0G record points at this seller. */
  providers: readonly Address[]
  /** Where the seller listens now. */
  url: string
}

/**
 * Points the providers' 0G records at the URL the seller listens on, as 0G's provider broker
 * updates its record when it starts; the seed could only guess the seller's port. Only the url
 * changes, which keeps the owner's acknowledgement (0G drops it for a new signer, model or setup,
 * not for a new url). A record already right, or absent, is left alone.
 */
export async function announceSellerUrl(client: PublicClient, { inferenceServing, providers, url }: AnnounceSellerUrlParameters): Promise<void> {
  for (const provider of providers) {
    const exists = await client.readContract({ address: inferenceServing, abi: inferenceServingAbi, functionName: 'serviceExists', args: [provider] })
    if (!exists) continue
    const record = await client.readContract({ address: inferenceServing, abi: inferenceServingAbi, functionName: 'getService', args: [provider] })
    if (record.url === url) continue
    const { serviceType, model, verifiability, inputPrice, outputPrice, additionalInfo, teeSignerAddress } = record
    await sendProviderRecord(client, { inferenceServing, provider, record: { serviceType, url, model, verifiability, inputPrice, outputPrice, additionalInfo, teeSignerAddress } })
  }
}
