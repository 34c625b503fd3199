import { type Address, type Client, BaseError as ViemBaseError, ContractFunctionRevertedError } from 'viem'
import { readContract } from 'viem/actions'
import { registryAbi } from '../../chain/abi/registry.ts'
import { readJobs } from '../../chain/read/readJobs.ts'
import { readServices } from '../../chain/read/readServices.ts'
import { JobNotFoundError, ServiceNotFoundError } from '../../errors/notFound.ts'
import type { MarketSource } from './MarketSource.ts'

export type CreateChainSourceParameters = {
  registry: Address
  escrow: Address
}

export type CreateChainSourceReturnType = MarketSource

/**
 * Reads the registry and the escrow directly, with the same batched readers and mappers the
 * indexer uses, so its answers are the chain's at the latest block.
 */
export function createChainSource(
  client: Client,
  { registry, escrow }: CreateChainSourceParameters,
): CreateChainSourceReturnType {
  return {
    async listServices() {
      const nextServiceId = await readContract(client, {
        address: registry,
        abi: registryAbi,
        functionName: 'nextServiceId',
      })
      const ids = Array.from({ length: Number(nextServiceId > 1n ? nextServiceId - 1n : 0n) }, (_, index) =>
        BigInt(index + 1),
      )
      return readServices(client, { registry, ids })
    },
    async getService({ serviceId }) {
      try {
        const [service] = await readServices(client, { registry, ids: [serviceId] })
        if (service !== undefined) return service
      } catch (error) {
        if (!isRevert(error)) throw error
      }
      throw new ServiceNotFoundError({ serviceId })
    },
    async getJob({ jobId }) {
      try {
        const [job] = await readJobs(client, { escrow, ids: [jobId] })
        if (job !== undefined) return job
      } catch (error) {
        if (!isRevert(error)) throw error
      }
      throw new JobNotFoundError({ jobId })
    },
  }
}

/** `getService` and `getJob` revert only for an id that was never assigned. */
function isRevert(error: unknown): boolean {
  return error instanceof ViemBaseError && error.walk((cause) => cause instanceof ContractFunctionRevertedError) !== null
}
