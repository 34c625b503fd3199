import type { ContractFunctionReturnType } from 'viem'
import type { registryAbi } from '../abi/registry.ts'
import type { Service } from '../../contract/service.ts'
import { flattenHex } from './flattenHex.ts'

/** The registry's `Service` struct as viem decodes it (uints as bigint, addresses checksummed). */
export type ServiceStruct = ContractFunctionReturnType<typeof registryAbi, 'view', 'getService'>

/** Turns the registry's struct into the contract's Service: uints become decimal strings, hex is flattened. */
export function toService(serviceId: bigint, struct: ServiceStruct): Service {
  return {
    serviceId: serviceId.toString(),
    inftTokenId: struct.inftTokenId.toString(),
    seller: struct.seller,
    capabilityHash: flattenHex(struct.capabilityHash),
    modelId: struct.modelId,
    modelCommitment: flattenHex(struct.modelCommitment),
    providerAddress: struct.providerAddress,
    signingAddress: struct.signingAddress,
    providerIdentity: struct.providerIdentity,
    providerType: struct.providerType,
    targetSeparated: struct.targetSeparated,
    pricePerCall: struct.pricePerCall.toString(),
    maxInputBytes: struct.maxInputBytes.toString(),
    registeredAt: struct.registeredAt.toString(),
    active: struct.active,
  }
}
