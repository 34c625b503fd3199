import {
  type Address,
  type Chain,
  type Client,
  type Hash,
  type Transport,
  custom,
  createTestClient,
  encodeFunctionData,
  getAddress,
  keccak256,
  parseGwei,
  stringToHex,
} from 'viem'
import { getBlock, getChainId, getTransactionReceipt, readContract } from 'viem/actions'
import { arbiterAbi } from '../chain/abi/arbiter.ts'
import { escrowAbi } from '../chain/abi/escrow.ts'
import { registryAbi } from '../chain/abi/registry.ts'
import { buildAttestationText } from '../chain/attestation/buildAttestationText.ts'
import { signAttestation } from '../chain/attestation/signAttestation.ts'
import type { JobStateName } from '../contract/job.ts'
import { SeedError } from '../errors/devnet.ts'
import type { Deployment } from '../config/deployment.ts'
import { createNonceSender, type NonceSender } from './seed/createNonceSender.ts'
import {
  delistedServiceIndex,
  disputeBond,
  expiringTimeoutSeconds,
  inactiveServiceIndex,
  type JobOutcome,
  pendingTimeoutSeconds,
  plannedJobs,
  plannedServices,
  prompts,
  rotatedServiceIndex,
  serviceBond,
  settledTimeoutSeconds,
  timeTravelSeconds,
} from './seed/marketPlan.ts'
import { labelledPrivateKey, seedAccounts, serviceSigningAccount } from './seed/seedAccounts.ts'

export type SeedMarketParameters = { deployment: Deployment }

export type SeedMarketReturnType = {
  sellers: readonly Address[]
  buyers: readonly Address[]
  serviceIds: readonly bigint[]
  /** Delisted after its jobs settled; its seller asked for the bond back (7 days to wait). */
  delistedServiceId: bigint
  /** Made inactive by `updateService` after its jobs were created. */
  inactiveServiceId: bigint
  /** Its signing key was rotated after some of its jobs settled; its bond was slashed. */
  rotatedServiceId: bigint
  jobs: number
  /** Disputes nobody has arbitrated yet. */
  openDisputes: readonly bigint[]
  /** Arbitrated while the attestation still verified: the job stays Disputed. */
  failedDisputes: readonly bigint[]
  /** Signed with a key the service later rotated away, then disputed and arbitrated. */
  slashedJobs: readonly bigint[]
  /** Where the seed leaves the jobs. */
  jobsByState: Readonly<Record<JobStateName, number>>
  /** Pending jobs of seller #1's services: the reference seller answers them once it runs. */
  pendingForReferenceSeller: readonly bigint[]
  /** Pending jobs of sellers #2 and #3, whom nothing runs: they stay Pending for a day. */
  pendingElsewhere: readonly bigint[]
}

const finalState: Record<JobOutcome, JobStateName> = {
  pending: 'Pending',
  settled: 'Settled',
  settledAfterRotation: 'Settled',
  expired: 'Expired',
  disputed: 'Disputed',
  disputeFailed: 'Disputed',
  slashed: 'Slashed',
}

/** Outcomes whose job the seller answers with the service's first signing key. */
const answeredBeforeRotation = new Set<JobOutcome>(['settled', 'disputed', 'disputeFailed', 'slashed'])
const disputedOutcomes = new Set<JobOutcome>(['disputed', 'disputeFailed', 'slashed'])
const arbitratedOutcomes = new Set<JobOutcome>(['disputeFailed', 'slashed'])

/**
 * Fills freshly deployed contracts with a small, lively market from fixed keys: 3 sellers, 6
 * services with a bond each (one delisted, one made inactive, one with a rotated signing key),
 * 36 jobs in every state the reference contracts leave a job in: open and failed disputes, and
 * slashes after the key rotation. The same deployment gives the same service and job ids on every
 * run. Registrations, job creations and arbitrations go one by one (their order fixes the ids and
 * which slash finds the bond full); the rest is sent per account in parallel.
 */
export async function seedMarket(
  client: Client<Transport, Chain | undefined>,
  { deployment }: SeedMarketParameters,
): Promise<SeedMarketReturnType> {
  const { registry, escrow, arbiter } = deployment
  const chainId = await getChainId(client)
  const latest = await getBlock(client)
  // Empty blocks only lower the base fee, so twice today's covers the whole seed.
  const maxPriorityFeePerGas = parseGwei('1')
  const maxFeePerGas = (latest.baseFeePerGas ?? parseGwei('1')) * 2n + maxPriorityFeePerGas
  const senderFor = (account: (typeof seedAccounts)['deployer']): NonceSender =>
    createNonceSender(client, { account, chainId, maxFeePerGas, maxPriorityFeePerGas })
  const sellers = seedAccounts.sellers.map(senderFor)
  const buyers = seedAccounts.buyers.map(senderFor)

  const [firstServiceId, firstJobId] = await Promise.all([
    readContract(client, { address: registry, abi: registryAbi, functionName: 'nextServiceId' }),
    readContract(client, { address: escrow, abi: escrowAbi, functionName: 'nextJobId' }),
  ])
  const serviceIds = plannedServices.map((_, index) => firstServiceId + BigInt(index))
  const jobIds = plannedJobs.map((_, index) => firstJobId + BigInt(index))
  const sent: Hash[] = []
  const step = async <T extends Hash | void>(name: string, run: () => Promise<T>): Promise<T> => {
    try {
      const result = await run()
      if (typeof result === 'string') sent.push(result)
      return result
    } catch (cause) {
      throw new SeedError(name, { cause })
    }
  }
  const sellerOf = (serviceIndex: number): NonceSender => sellers[plannedServices[serviceIndex]!.seller]!

  for (const [index, service] of plannedServices.entries()) {
    const signingAddress = serviceSigningAccount({ key: service.key, generation: 1 }).address
    await step(`register service ${service.key}`, () =>
      sellerOf(index).send({
        to: registry,
        data: encodeFunctionData({
          abi: registryAbi,
          functionName: 'registerService',
          args: [
            keccak256(stringToHex(`capability: chat completion, ${service.modelId}`)),
            service.modelId,
            providerAddress(service.providerIdentity),
            signingAddress,
            service.providerIdentity,
            'centralized',
            service.targetSeparated,
            service.pricePerCall,
            service.maxInputBytes,
            stringToHex(`ipfs://tee-market-devnet/agents/${service.key}.json`),
          ],
        }),
      }),
    )
  }
  await Promise.all(
    serviceIds.map((serviceId, index) =>
      step(`stake the bond of service ${serviceId}`, () =>
        sellerOf(index).send({
          to: arbiter,
          data: encodeFunctionData({ abi: arbiterAbi, functionName: 'stakeBond', args: [serviceId] }),
          value: serviceBond,
        }),
      ),
    ),
  )

  for (const [index, job] of plannedJobs.entries()) {
    const service = plannedServices[job.serviceIndex]!
    const timeout =
      job.outcome === 'pending' ? pendingTimeoutSeconds : job.outcome === 'expired' ? expiringTimeoutSeconds : settledTimeoutSeconds
    await step(`create job ${jobIds[index]}`, () =>
      buyers[job.buyerIndex]!.send({
        to: escrow,
        data: encodeFunctionData({
          abi: escrowAbi,
          functionName: 'createJob',
          args: [serviceIds[job.serviceIndex]!, stringToHex(prompts[index % prompts.length]!), timeout],
        }),
        value: service.pricePerCall,
      }),
    )
  }

  const answer = async (index: number, generation: number): Promise<Hash> => {
    const job = plannedJobs[index]!
    const service = plannedServices[job.serviceIndex]!
    const jobId = jobIds[index]!
    const output = `[${service.modelId}] Seeded answer to job ${jobId}: ${prompts[index % prompts.length]}`
    const outputRootHash = keccak256(stringToHex(output))
    const text = buildAttestationText({
      contentHash: outputRootHash,
      usageHash: keccak256(stringToHex(JSON.stringify({ jobId: jobId.toString(), model: service.modelId }))),
      providerType: 'centralized',
      providerIdentity: service.providerIdentity,
      tlsCertFingerprint: keccak256(stringToHex(`tls certificate of ${service.providerIdentity}`)),
    })
    const signature = await signAttestation(serviceSigningAccount({ key: service.key, generation }), { text })
    const chatId = keccak256(stringToHex(`tee-market devnet seed chat ${jobId}`))
    return sellerOf(job.serviceIndex).send({
      to: escrow,
      data: encodeFunctionData({
        abi: escrowAbi,
        functionName: 'submitAttestation',
        args: [jobId, outputRootHash, chatId, text, signature],
      }),
    })
  }
  const jobIndexes = plannedJobs.map((_, index) => index)
  await Promise.all(
    sellers.map(async (seller, sellerIndex) => {
      const own = jobIndexes.filter((index) => plannedServices[plannedJobs[index]!.serviceIndex]!.seller === sellerIndex)
      for (const index of own.filter((index) => answeredBeforeRotation.has(plannedJobs[index]!.outcome))) {
        await step(`settle job ${jobIds[index]}`, () => answer(index, 1))
      }
      if (plannedServices[rotatedServiceIndex]!.seller === sellerIndex) {
        const service = plannedServices[rotatedServiceIndex]!
        await step(`rotate the signing key of service ${serviceIds[rotatedServiceIndex]}`, () =>
          seller.send({
            to: registry,
            data: encodeFunctionData({
              abi: registryAbi,
              functionName: 'rotateSigningAddress',
              args: [serviceIds[rotatedServiceIndex]!, serviceSigningAccount({ key: service.key, generation: 2 }).address],
            }),
          }),
        )
        for (const index of own.filter((index) => plannedJobs[index]!.outcome === 'settledAfterRotation')) {
          await step(`settle job ${jobIds[index]}`, () => answer(index, 2))
        }
      }
      if (plannedServices[delistedServiceIndex]!.seller === sellerIndex) {
        const serviceId = serviceIds[delistedServiceIndex]!
        await step(`delist service ${serviceId}`, () =>
          seller.send({
            to: registry,
            data: encodeFunctionData({ abi: registryAbi, functionName: 'delistService', args: [serviceId] }),
          }),
        )
        await step(`request the bond of service ${serviceId} back`, () =>
          seller.send({
            to: arbiter,
            data: encodeFunctionData({ abi: arbiterAbi, functionName: 'requestWithdrawal', args: [serviceId] }),
          }),
        )
      }
      if (plannedServices[inactiveServiceIndex]!.seller === sellerIndex) {
        const service = plannedServices[inactiveServiceIndex]!
        await step(`make service ${serviceIds[inactiveServiceIndex]} inactive`, () =>
          seller.send({
            to: registry,
            data: encodeFunctionData({
              abi: registryAbi,
              functionName: 'updateService',
              args: [serviceIds[inactiveServiceIndex]!, service.pricePerCall, false],
            }),
          }),
        )
      }
    }),
  )

  await Promise.all(
    jobIndexes
      .filter((index) => disputedOutcomes.has(plannedJobs[index]!.outcome))
      .map((index) =>
        step(`dispute job ${jobIds[index]}`, () =>
          buyers[plannedJobs[index]!.buyerIndex]!.send({
            to: escrow,
            data: encodeFunctionData({ abi: escrowAbi, functionName: 'dispute', args: [jobIds[index]!] }),
            value: disputeBond,
          }),
        ),
      ),
  )
  // Anyone may arbitrate; here the disputer does. One at a time, so the first slash of the
  // rotated service takes its whole bond and the second finds it empty, on every run.
  for (const index of jobIndexes.filter((index) => arbitratedOutcomes.has(plannedJobs[index]!.outcome))) {
    await step(`arbitrate the dispute on job ${jobIds[index]}`, () =>
      buyers[plannedJobs[index]!.buyerIndex]!.send({
        to: arbiter,
        data: encodeFunctionData({ abi: arbiterAbi, functionName: 'arbitrate', args: [jobIds[index]!] }),
      }),
    )
  }

  const testClient = createTestClient({ mode: 'hardhat', transport: custom(client) })
  await step('move the clock past the short timeouts', async () => {
    await testClient.increaseTime({ seconds: timeTravelSeconds })
    await testClient.mine({ blocks: 1 })
  })
  await Promise.all(
    jobIndexes
      .filter((index) => plannedJobs[index]!.outcome === 'expired')
      .map((index) =>
        step(`reclaim expired job ${jobIds[index]}`, () =>
          buyers[plannedJobs[index]!.buyerIndex]!.send({
            to: escrow,
            data: encodeFunctionData({ abi: escrowAbi, functionName: 'reclaimExpired', args: [jobIds[index]!] }),
          }),
        ),
      ),
  )

  await step('confirm every seed transaction', async () => {
    const receipts = await Promise.all(sent.map((hash) => getTransactionReceipt(client, { hash })))
    const failed = receipts.find((receipt) => receipt.status !== 'success')
    if (failed !== undefined) throw new Error(`transaction ${failed.transactionHash} reverted`)
  })

  const jobsByState: Record<JobStateName, number> = {
    Pending: 0,
    Sealed: 0,
    Attested: 0,
    Settled: 0,
    Expired: 0,
    Disputed: 0,
    Slashed: 0,
  }
  for (const job of plannedJobs) jobsByState[finalState[job.outcome]]++
  const jobIdsWith = (outcome: JobOutcome): bigint[] =>
    jobIndexes.filter((index) => plannedJobs[index]!.outcome === outcome).map((index) => jobIds[index]!)
  const pendingOf = (sellerIndexes: readonly number[]): bigint[] =>
    jobIndexes
      .filter((index) => {
        const job = plannedJobs[index]!
        return job.outcome === 'pending' && sellerIndexes.includes(plannedServices[job.serviceIndex]!.seller)
      })
      .map((index) => jobIds[index]!)

  return {
    sellers: sellers.map((seller) => seller.address),
    buyers: buyers.map((buyer) => buyer.address),
    serviceIds,
    delistedServiceId: serviceIds[delistedServiceIndex]!,
    inactiveServiceId: serviceIds[inactiveServiceIndex]!,
    rotatedServiceId: serviceIds[rotatedServiceIndex]!,
    jobs: plannedJobs.length,
    openDisputes: jobIdsWith('disputed'),
    failedDisputes: jobIdsWith('disputeFailed'),
    slashedJobs: jobIdsWith('slashed'),
    jobsByState,
    pendingForReferenceSeller: pendingOf([0]),
    pendingElsewhere: pendingOf([1, 2]),
  }
}

/** A provider's fixed on-chain address: only its identity matters on the devnet. */
function providerAddress(providerIdentity: string): Address {
  return getAddress(`0x${labelledPrivateKey(`provider ${providerIdentity}`).slice(-40)}`)
}
