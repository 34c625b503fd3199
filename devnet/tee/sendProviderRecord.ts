import { type Address, type ContractFunctionArgs, type Hash, type PublicClient, encodeFunctionData } from 'viem'
import { inferenceServingMockAbi } from '../../chain/abi/inferenceServingMock.ts'
import { sendAsImpersonated } from './sendAsImpersonated.ts'

/** A 0G provider record as the InferenceServing mock's `addOrUpdateService` takes it. */
export type ProviderRecordArgs = ContractFunctionArgs<typeof inferenceServingMockAbi, 'payable', 'addOrUpdateService'>[0]

export type SendProviderRecordParameters = {
  inferenceServing: Address
  /** The provider: the sender of its own record. */
  provider: Address
  record: ProviderRecordArgs
}

/**
 * Registers or updates a provider's 0G record on the devnet's InferenceServing mock, sent as the
 * provider (impersonated, on the devnet's node only), once mined; throws when it reverted.
 */
export async function sendProviderRecord(client: PublicClient, { inferenceServing, provider, record }: SendProviderRecordParameters): Promise<Hash> {
  const hash = await sendAsImpersonated(client, {
    from: provider,
    to: inferenceServing,
    data: encodeFunctionData({ abi: inferenceServingMockAbi, functionName: 'addOrUpdateService', args: [record] }),
  })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`The 0G record of provider ${provider} (url "${record.url}") reverted (transaction ${hash}).`)
  return hash
}
