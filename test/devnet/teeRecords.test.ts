import { BaseError, ContractFunctionRevertedError, createPublicClient, http } from 'viem'
import { readContract } from 'viem/actions'
import { expect, inject, test } from 'vitest'
import { inferenceServingAbi } from '../../chain/abi/inferenceServing.ts'
import { inferenceServingMockAbi } from '../../chain/abi/inferenceServingMock.ts'
import { plannedServices, rotatedServiceIndex } from '../../devnet/seed/marketPlan.ts'
import { seedAccounts, seedProviderAddress, serviceSigningAccount } from '../../devnet/seed/seedAccounts.ts'
import { closedPortUrl, defaultReferenceSellerUrl, plannedTeeRecords, seededTeeVerdicts } from '../../devnet/seed/teePlan.ts'

const { rpcUrl, deployment } = inject('devnet')
const client = createPublicClient({ transport: http(rpcUrl, { batch: true }) })
const serviceIds = plannedServices.map((_, index) => BigInt(index + 1))

test('default: the deployment record names the InferenceServing mock, the PCCS and the root; the deployer owns the mock', async () => {
  expect(deployment.tee).toEqual({ inferenceServing: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), pccsUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), rootCa: expect.stringMatching(/^0x30/) })
  const owner = await readContract(client, { address: deployment.tee!.inferenceServing, abi: inferenceServingAbi, functionName: 'owner' })
  expect(owner).toBe(seedAccounts.deployer.address)
})

test("every seeded provider's 0G record is the plan's (read with 0G's ABI); a provider without one reverts with ServiceNotExist", async () => {
  const address = deployment.tee!.inferenceServing
  for (const [index, service] of plannedServices.entries()) {
    const provider = seedProviderAddress(service.providerIdentity)
    const planned = plannedTeeRecords.find(({ serviceIndex }) => serviceIndex === index)
    expect(await readContract(client, { address, abi: inferenceServingAbi, functionName: 'serviceExists', args: [provider] })).toBe(planned !== undefined)
    if (planned === undefined) {
      const error = await readContract(client, { address, abi: inferenceServingMockAbi, functionName: 'getService', args: [provider] }).catch((error: unknown) => error)
      const revert = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : undefined
      expect((revert as ContractFunctionRevertedError | undefined)?.data).toMatchObject({ errorName: 'ServiceNotExist', args: [provider] })
      continue
    }
    const record = await readContract(client, { address, abi: inferenceServingAbi, functionName: 'getService', args: [provider] })
    const signer = serviceSigningAccount({ key: service.key, generation: index === rotatedServiceIndex ? 2 : 1 }).address
    expect(record, `service ${index + 1}`).toMatchObject({
      provider,
      serviceType: 'chatbot',
      // No reference seller runs beside the shared devnet: its records keep the seed's default URL.
      url: planned.url === 'referenceSeller' ? defaultReferenceSellerUrl : closedPortUrl,
      model: service.modelId,
      verifiability: 'TeeML',
      additionalInfo: JSON.stringify({ TargetSeparated: service.targetSeparated }),
      teeSignerAddress: signer,
      teeSignerAcknowledged: planned.acknowledged,
    })
  }
})

test('the seed plan reaches every verdict, each service once', () => {
  const verdicts = seededTeeVerdicts(serviceIds)
  expect(verdicts.map(({ serviceId, expectedVerdict }) => [serviceId, expectedVerdict])).toEqual([
    [1n, 'verified'],
    [2n, 'failed'],
    [3n, 'unreachable'],
    [4n, 'none'],
    [5n, 'acknowledged'],
    [6n, 'none'],
  ])
  for (const { why } of verdicts) expect(why.length).toBeGreaterThan(10)
})
