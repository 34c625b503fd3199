import { BaseError as ViemError, ContractFunctionZeroDataError, type Address, type Client } from 'viem'
import { readContract } from 'viem/actions'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'

export type ReadNextIdParameters =
  | { contract: 'registry'; address: Address; blockNumber: bigint }
  | { contract: 'escrow'; address: Address; blockNumber: bigint }

/** Ids start at 1 (chain-interface.md): the next id of a contract that holds nothing yet. */
const firstId = 1n

/**
 * `nextServiceId()` or `nextJobId()` at a block: the number of records created up to it, plus
 * one. Before the contract was deployed (no code at that block) it is the first id.
 */
export async function readNextId(client: Client, { contract, address, blockNumber }: ReadNextIdParameters): Promise<bigint> {
  try {
    return contract === 'registry'
      ? await readContract(client, { address, abi: registryAbi, functionName: 'nextServiceId', blockNumber })
      : await readContract(client, { address, abi: escrowAbi, functionName: 'nextJobId', blockNumber })
  } catch (error) {
    if (error instanceof ViemError && error.walk((cause) => cause instanceof ContractFunctionZeroDataError) !== null) return firstId
    throw error
  }
}
