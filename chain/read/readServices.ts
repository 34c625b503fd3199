import type { Address, Client } from 'viem'
import { registryAbi } from '../abi/registry.ts'
import { toService } from '../mappers/toService.ts'
import type { Service } from '../../contract/service.ts'
import { readByIds } from './readByIds.ts'

export type ReadServicesParameters = {
  registry: Address
  ids: readonly bigint[]
  /** Block whose state is read (default: the latest). */
  blockNumber?: bigint | undefined
}
export type ReadServicesReturnType = Service[]

/**
 * A devnet service encodes to ~800 bytes (14 head words and three short strings); 20 per call
 * stay well under the 24,576 bytes an `eth_call` may return even with long model ids or
 * provider identities. A call that returns too much is refused by the node and split by readByIds.
 */
const servicesPerCall = 20

/** Reads `getService` for every id, in the order given, many ids per `eth_call` (see readByIds). */
export async function readServices(client: Client, { registry, ids, blockNumber }: ReadServicesParameters): Promise<ReadServicesReturnType> {
  const structs = await readByIds(client, {
    address: registry,
    abi: registryAbi,
    functionName: 'getService',
    ids,
    idsPerCall: servicesPerCall,
    blockNumber,
  })
  return structs.map((struct, index) => toService(ids[index] as bigint, struct))
}
