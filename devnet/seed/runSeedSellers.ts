import { encodeFunctionData } from 'viem'
import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { registryAbi } from '../../chain/abi/registry.ts'
import { answerSeedJob } from './answerSeedJob.ts'
import { type JobOutcome, delistedServiceIndex, inactiveServiceIndex, plannedJobs, plannedServices, rotatedServiceIndex } from './marketPlan.ts'
import { serviceSigningAccount } from './seedAccounts.ts'
import type { SeedRun } from './SeedRun.ts'

/** Outcomes whose job the seller answers with the service's first signing key. */
const answeredBeforeRotation = new Set<JobOutcome>(['settled', 'disputed', 'disputeFailed', 'slashed'])

/**
 * What each seller does after the jobs exist, sellers in parallel and each one's steps in order:
 * answers its jobs, rotates a signing key and answers with the new one, delists a service and asks
 * for its bond back, makes a service inactive.
 */
export async function runSeedSellers(run: SeedRun): Promise<void> {
  await Promise.all(run.sellers.map((_, sellerIndex) => runSeedSeller(run, sellerIndex)))
}

async function runSeedSeller(run: SeedRun, sellerIndex: number): Promise<void> {
  const { step, jobIds } = run
  const own = plannedJobs.flatMap((job, index) => (plannedServices[job.serviceIndex]!.seller === sellerIndex ? [index] : []))
  for (const index of own.filter((index) => answeredBeforeRotation.has(plannedJobs[index]!.outcome)))
    await step(`settle job ${jobIds[index]}`, () => answerSeedJob(run, index, 1))
  if (plannedServices[rotatedServiceIndex]!.seller === sellerIndex) {
    await rotateSigningKey(run, sellerIndex)
    for (const index of own.filter((index) => plannedJobs[index]!.outcome === 'settledAfterRotation'))
      await step(`settle job ${jobIds[index]}`, () => answerSeedJob(run, index, 2))
  }
  if (plannedServices[delistedServiceIndex]!.seller === sellerIndex) await delistService(run, sellerIndex)
  if (plannedServices[inactiveServiceIndex]!.seller === sellerIndex) await deactivateService(run, sellerIndex)
}

async function rotateSigningKey({ deployment, sellers, serviceIds, step }: SeedRun, sellerIndex: number): Promise<void> {
  const service = plannedServices[rotatedServiceIndex]!
  await step(`rotate the signing key of service ${serviceIds[rotatedServiceIndex]}`, () =>
    sellers[sellerIndex]!.send({
      to: deployment.registry,
      data: encodeFunctionData({
        abi: registryAbi,
        functionName: 'rotateSigningAddress',
        args: [serviceIds[rotatedServiceIndex]!, serviceSigningAccount({ key: service.key, generation: 2 }).address],
      }),
    }),
  )
}

async function delistService({ deployment, sellers, serviceIds, step }: SeedRun, sellerIndex: number): Promise<void> {
  const serviceId = serviceIds[delistedServiceIndex]!
  const seller = sellers[sellerIndex]!
  await step(`delist service ${serviceId}`, () =>
    seller.send({
      to: deployment.registry,
      data: encodeFunctionData({ abi: registryAbi, functionName: 'delistService', args: [serviceId] }),
    }),
  )
  await step(`request the bond of service ${serviceId} back`, () =>
    seller.send({
      to: deployment.arbiter,
      data: encodeFunctionData({ abi: arbiterAbi, functionName: 'requestWithdrawal', args: [serviceId] }),
    }),
  )
}

async function deactivateService({ deployment, sellers, serviceIds, step }: SeedRun, sellerIndex: number): Promise<void> {
  const service = plannedServices[inactiveServiceIndex]!
  await step(`make service ${serviceIds[inactiveServiceIndex]} inactive`, () =>
    sellers[sellerIndex]!.send({
      to: deployment.registry,
      data: encodeFunctionData({
        abi: registryAbi,
        functionName: 'updateService',
        args: [serviceIds[inactiveServiceIndex]!, service.pricePerCall, false],
      }),
    }),
  )
}
