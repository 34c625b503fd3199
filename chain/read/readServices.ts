import type { Address, Client } from 'viem'
import { readContract } from 'viem/actions'
import { registryAbi } from '../abi/registry.ts'
import { toService } from '../mappers/toService.ts'
import type { Service } from '../../contract/service.ts'

export type ReadServicesParameters = {
  registry: Address
  ids: readonly bigint[]
}
export type ReadServicesReturnType = Service[]

/**
 * Reads `getService` for every id at once, in the order given. The calls are issued together so
 * a batching transport (`http(url, { batch: true })`) sends them as one JSON-RPC batch.
 */
export function readServices(client: Client, { registry, ids }: ReadServicesParameters): Promise<ReadServicesReturnType> {
  return Promise.all(
    ids.map(async (serviceId) =>
      toService(serviceId, await readContract(client, { address: registry, abi: registryAbi, functionName: 'getService', args: [serviceId] })),
    ),
  )
}
