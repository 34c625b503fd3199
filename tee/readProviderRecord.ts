import { type Address, type PublicClient, getAddress, zeroAddress } from 'viem'
import { inferenceServingAbi } from '../chain/abi/inferenceServing.ts'
import type { TeeProviderRecord } from '../contract/tee.ts'
import { TeeProviderRecordError } from '../errors/tee.ts'
import { readTargetSeparated } from './readTargetSeparated.ts'

export type ReadProviderRecordParameters = {
  /** 0G's InferenceServing: 0x47340d900bdFec2BD393c626E12ea0656F938d84 on mainnet (16661), 0xa79F4c8311FF93C06b8CfB403690cc987c93F91E on testnet (16602). */
  contract: Address
  provider: Address
}

export type ReadProviderRecordReturnType = TeeProviderRecord | undefined

export type ReadProviderRecordErrorType = TeeProviderRecordError

/** The longest of the provider's strings kept: they are shown beside a verdict, and anyone's text. */
const maxTextLength = 2_048

const cut = (text: string) => (text.length > maxTextLength ? `${text.slice(0, maxTextLength)}…` : text)

/**
 * The provider's record on 0G's InferenceServing (`serviceExists`, then `getService`), or
 * undefined when it has none. Throws `TeeProviderRecordError` when the chain cannot be read:
 * that is not "no record", and the caller says so.
 */
export async function readProviderRecord(client: PublicClient, { contract, provider }: ReadProviderRecordParameters): Promise<ReadProviderRecordReturnType> {
  try {
    const exists = await client.readContract({ address: contract, abi: inferenceServingAbi, functionName: 'serviceExists', args: [provider] })
    if (!exists) return undefined
    const service = await client.readContract({ address: contract, abi: inferenceServingAbi, functionName: 'getService', args: [provider] })
    return {
      url: cut(service.url),
      model: cut(service.model),
      verifiability: cut(service.verifiability),
      targetSeparated: readTargetSeparated(service.additionalInfo),
      teeSignerAddress: service.teeSignerAddress === zeroAddress ? null : getAddress(service.teeSignerAddress),
      teeSignerAcknowledged: service.teeSignerAcknowledged,
    }
  } catch (cause) {
    throw new TeeProviderRecordError({ provider, contract, cause })
  }
}
