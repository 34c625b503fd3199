import Fastify from 'fastify'
import type { Address, PublicClient } from 'viem'
import { registryAbi } from '../chain/abi/registry.ts'
import type { Deployment } from '../config/deployment.ts'
import { BenchSetupError } from '../errors/bench.ts'
import { serveAttestation } from '../devnet/seller/serveAttestation.ts'
import { createAttester } from '../devnet/tee/createAttester.ts'
import type { TeeRoot } from '../devnet/tee/createTeeRoot.ts'
import { sendProviderRecord } from '../devnet/tee/sendProviderRecord.ts'
import { benchServices } from './benchServices.ts'
import type { BenchBatchers } from './deployBatchers.ts'

export type StartBenchAttestationsParameters = {
  deployment: Deployment
  teeRoot: TeeRoot
  /** The sellers' batchers: each registered its seller's services, so it is their provider address. */
  batchers: Pick<BenchBatchers, 'of'>
}

export type StartBenchAttestationsReturnType = {
  /** Provider records registered on the InferenceServing mock, one per seller. */
  providers: number
  stop: () => Promise<void>
}

/**
 * The bench market's TEE, as the devnet's: one 0G provider record per provider (a seller's batcher,
 * the providerAddress of its services), sent as that provider, pointing at a loopback server of
 * dstack reports (the reference seller's endpoints) whose quotes, made with the devnet's root, bind
 * the provider's first service's current signing key (read from the registry: the generator
 * rotates some), the key the record names. An indexer then checks every service with a full quote
 * verification: the first of each provider `verified`, the others `failed` (the quote names
 * another key). Call it once the market is generated.
 */
export async function startBenchAttestations(client: PublicClient, { deployment, teeRoot, batchers }: StartBenchAttestationsParameters): Promise<StartBenchAttestationsReturnType> {
  const inferenceServing = deployment.tee?.inferenceServing
  if (inferenceServing === undefined) throw new BenchSetupError('The bench devnet has no InferenceServing mock to register provider records on.')
  const firstOf = new Map<Address, (typeof benchServices)[number]>()
  for (const service of benchServices) if (!firstOf.has(batchers.of(service.seller))) firstOf.set(batchers.of(service.seller), service)
  const providers = await Promise.all(
    [...firstOf.entries()].map(async ([provider, service]) => {
      const { signingAddress } = await client.readContract({ address: deployment.registry, abi: registryAbi, functionName: 'getService', args: [BigInt(service.index + 1)] })
      return { provider, modelId: service.modelId, signingAddress }
    }),
  )
  const app = Fastify({ logger: false })
  providers.forEach(({ signingAddress }, index) => {
    const attester = createAttester({ root: teeRoot, signingAddress })
    void app.register(async (child) => serveAttestation(child, attester), { prefix: `/providers/${index}` })
  })
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  try {
    for (const [index, { provider, modelId, signingAddress }] of providers.entries()) {
      const record = { serviceType: 'chatbot', url: `${url}/providers/${index}`, model: modelId, verifiability: 'TeeML', inputPrice: 1n, outputPrice: 1n, additionalInfo: '{}', teeSignerAddress: signingAddress }
      await sendProviderRecord(client, { inferenceServing, provider, record })
    }
  } catch (error) {
    await app.close()
    throw error
  }
  return { providers: providers.length, stop: () => app.close() }
}
