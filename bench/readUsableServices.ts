import { registryAbi } from '../chain/abi/registry.ts'
import type { Deployment } from '../config/deployment.ts'
import { BenchSetupError } from '../errors/bench.ts'
import { benchServices, type BenchService } from './benchServices.ts'
import type { BenchClients } from './createBenchClients.ts'

/**
 * The bench services that take a job now, each with the key it signs with: the generator rotated
 * the keys of the services it slashed (the reference's only path to a slash), and only active
 * services take a job.
 */
export async function readUsableServices(clients: BenchClients, { registry }: Pick<Deployment, 'registry'>): Promise<BenchService[]> {
  const records = await Promise.all(
    benchServices.map(({ index }) => clients.public.readContract({ address: registry, abi: registryAbi, functionName: 'getService', args: [BigInt(index + 1)] })),
  )
  const usable = benchServices.flatMap((service, index): BenchService[] => {
    const record = records[index]
    const signer = [service.signer, service.rotatedSigner].find((key) => key.address === record?.signingAddress)
    return record?.active === true && signer !== undefined ? [{ ...service, signer }] : []
  })
  if (usable.length === 0) throw new BenchSetupError('No bench service is active with a bench signing key: no job can be created and settled.')
  return usable
}
