import type { Address, Chain, Client, Transport } from 'viem'
import { getTransactionReceipt } from 'viem/actions'
import type { Deployment } from '../config/deployment.ts'
import type { JobStateName } from '../contract/job.ts'
import { createSeedJobs } from './seed/createSeedJobs.ts'
import { disputeSeedJobs } from './seed/disputeSeedJobs.ts'
import { expireSeedJobs } from './seed/expireSeedJobs.ts'
import { delistedServiceIndex, inactiveServiceIndex, type JobOutcome, plannedJobs, plannedServices, referenceSellerIndex, rotatedServiceIndex } from './seed/marketPlan.ts'
import { seedAccounts } from './seed/seedAccounts.ts'
import { registerSeedServices } from './seed/registerSeedServices.ts'
import { registerSeedTeeRecords } from './seed/registerSeedTeeRecords.ts'
import { runSeedSellers } from './seed/runSeedSellers.ts'
import type { SeedRun } from './seed/SeedRun.ts'
import { startSeedRun } from './seed/startSeedRun.ts'
import { type SeededTeeVerdict, seededTeeVerdicts } from './seed/teePlan.ts'

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
  /**
   * The TEE verdict each service's 0G provider record (on the InferenceServing mock) leads to, and
   * why; empty for a deployment without the devnet's TEE.
   */
  teeVerdicts: readonly SeededTeeVerdict[]
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

/**
 * Fills freshly deployed contracts with a small, lively market from fixed keys: 3 sellers, 6
 * services with a bond each (one delisted, one made inactive, one with a rotated signing key),
 * 36 jobs in every state the reference contracts leave a job in: open and failed disputes, and
 * slashes after the key rotation; with the devnet's TEE, 0G provider records leading to every TEE
 * verdict (seed/teePlan.ts). The same deployment gives the same service and job ids on every
 * run. Registrations, job creations and arbitrations go one by one (their order fixes the ids and
 * which slash finds the bond full); the rest is sent per account in parallel.
 */
export async function seedMarket(
  client: Client<Transport, Chain | undefined>,
  { deployment }: SeedMarketParameters,
): Promise<SeedMarketReturnType> {
  const run = await startSeedRun(client, deployment)
  await registerSeedServices(run)
  await createSeedJobs(run)
  await runSeedSellers(run)
  await disputeSeedJobs(run)
  await expireSeedJobs(run)
  await registerSeedTeeRecords(run)
  await run.step('confirm every seed transaction', async () => {
    const receipts = await Promise.all(run.sent.map((hash) => getTransactionReceipt(client, { hash })))
    const failed = receipts.find((receipt) => receipt.status !== 'success')
    if (failed !== undefined) throw new Error(`transaction ${failed.transactionHash} reverted`)
  })
  return summarizeSeed(run)
}

function summarizeSeed({ sellers, buyers, serviceIds, jobIds, deployment }: SeedRun): SeedMarketReturnType {
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
  const jobIdsWhere = (planned: (job: (typeof plannedJobs)[number]) => boolean): bigint[] =>
    plannedJobs.flatMap((job, index) => (planned(job) ? [jobIds[index]!] : []))
  const jobIdsWith = (outcome: JobOutcome): bigint[] => jobIdsWhere((job) => job.outcome === outcome)
  const pendingOf = (sellerIndexes: readonly number[]): bigint[] =>
    jobIdsWhere((job) => job.outcome === 'pending' && sellerIndexes.includes(plannedServices[job.serviceIndex]!.seller))
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
    pendingForReferenceSeller: pendingOf([referenceSellerIndex]),
    pendingElsewhere: pendingOf(seedAccounts.sellers.flatMap((_, index) => (index === referenceSellerIndex ? [] : [index]))),
    teeVerdicts: deployment.tee === undefined ? [] : seededTeeVerdicts(serviceIds),
  }
}
