import type { Address, Client } from 'viem'
import { readContract } from 'viem/actions'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { readJobs } from '../../chain/read/readJobs.ts'
import { readServices } from '../../chain/read/readServices.ts'
import { JobNotFoundError, ServiceNotFoundError } from '../../errors/notFound.ts'
import { findAttestedSigner } from '../verify/findAttestedSigner.ts'
import type { MarketSource } from './MarketSource.ts'
import type { TeeVerdictCache } from './createTeeVerdictCache.ts'

export type CreateChainSourceParameters = {
  registry: Address
  escrow: Address
  /** Checks a service's TEE here, from its provider's evidence (see createTeeVerdictCache). */
  teeVerdicts: TeeVerdictCache
}

export type CreateChainSourceReturnType = MarketSource

/**
 * Reads the registry and the escrow directly, with the same batched readers and mappers the
 * indexer uses, so its answers are the chain's at the latest block (two or more node calls each). Ids are checked against
 * `nextServiceId` / `nextJobId` first: `getService` and `getJob` revert for an unknown id, and a
 * revert is slow to come back (transports retry it) and says nothing more.
 */
export function createChainSource(
  client: Client,
  { registry, escrow, teeVerdicts }: CreateChainSourceParameters,
): CreateChainSourceReturnType {
  const nextServiceId = () => readContract(client, { address: registry, abi: registryAbi, functionName: 'nextServiceId' })
  const nextJobId = () => readContract(client, { address: escrow, abi: escrowAbi, functionName: 'nextJobId' })

  const listServices = async () => {
    const next = await nextServiceId()
    const ids = Array.from({ length: Number(next > 1n ? next - 1n : 0n) }, (_, index) => BigInt(index + 1))
    return readServices(client, { registry, ids })
  }
  const getService = async ({ serviceId }: { serviceId: bigint }) => {
    if (serviceId === 0n || serviceId >= (await nextServiceId())) throw new ServiceNotFoundError({ serviceId })
    const [service] = await readServices(client, { registry, ids: [serviceId] })
    if (service === undefined) throw new ServiceNotFoundError({ serviceId })
    return service
  }

  return {
    listServices,
    getService,
    async getJob({ jobId }) {
      if (jobId === 0n || jobId >= (await nextJobId())) throw new JobNotFoundError({ jobId })
      const [job] = await readJobs(client, { escrow, ids: [jobId] })
      if (job === undefined) throw new JobNotFoundError({ jobId })
      return job
    },
    attestedSigner({ job }) {
      return findAttestedSigner(client, { escrow, jobId: BigInt(job.jobId), createdAt: BigInt(job.createdAt), timeout: BigInt(job.timeout) })
    },
    async getTeeVerdict({ serviceId }) {
      return teeVerdicts.verdictOf(await getService({ serviceId }))
    },
    async listTeeVerdicts() {
      return Promise.all((await listServices()).map((service) => teeVerdicts.verdictOf(service)))
    },
  }
}
