import { type Address, parseEther } from 'viem'
import type { JobStateName } from '../contract/job.ts'
import { benchAccounts } from './benchAccounts.ts'
import { benchServices, type BenchService } from './benchServices.ts'

export type BenchOutcome = 'pending' | 'settled' | 'expired' | 'disputed' | 'slashed' | 'disputeFailed'

/** What the bench market does with its i-th job: the chain generator (generateJobs) and the synthetic store (fillSyntheticStore) follow one plan. */
export type PlanBenchJobReturnType = { outcome: BenchOutcome; service: BenchService; buyer: Address }

/**
 * The outcome of the i-th job created, by `i mod 47` (prime to the 50 services, so every service
 * gets every outcome): 32 settled, 5 pending, 4 expired, 2 disputed, 2 slashed, 2 disputes failed.
 */
const outcomeCycle: readonly BenchOutcome[] = Array.from({ length: 47 }, (_, position): BenchOutcome => {
  if ([3, 13, 23, 33, 43].includes(position)) return 'pending'
  if ([7, 17, 27, 37].includes(position)) return 'expired'
  if ([9, 29].includes(position)) return 'disputed'
  if ([19, 39].includes(position)) return 'slashed'
  if ([24, 44].includes(position)) return 'disputeFailed'
  return 'settled'
})

/** The share of the market's jobs planned to one of `outcomes` (of the 47 in a turn of the cycle). */
export function outcomeShare(...outcomes: BenchOutcome[]): number {
  return outcomeCycle.filter((outcome) => outcomes.includes(outcome)).length / outcomeCycle.length
}

/** The outcomes whose job is settled with an attestation (and may then be disputed). */
export const attestedOutcomes: readonly BenchOutcome[] = ['settled', 'disputed', 'slashed', 'disputeFailed']
/** The outcomes whose job is disputed after settling. */
export const disputedOutcomes: readonly BenchOutcome[] = ['disputed', 'slashed', 'disputeFailed']

/** Escrow and arbiter logs about the job each outcome leaves beyond JobCreated. */
export const extraEvents: Record<BenchOutcome, number> = {
  pending: 0,
  expired: 1, // JobExpired
  settled: 2, // JobAttested, JobSettled
  disputed: 4, // + JobDisputed, DisputeOpened
  disputeFailed: 5, // + JobDisputed, DisputeOpened, DisputeFailed
  slashed: 6, // + JobDisputed, DisputeOpened, JobSlashed, Slashed
}

/** The state each outcome leaves the job in. */
export const outcomeStates: Record<BenchOutcome, JobStateName> = {
  pending: 'Pending',
  settled: 'Settled',
  expired: 'Expired',
  disputed: 'Disputed',
  // A failed dispute leaves the job Disputed: the arbiter does not tell the escrow.
  disputeFailed: 'Disputed',
  slashed: 'Slashed',
}

export const longTimeoutSeconds = 86_400n
export const expiringTimeoutSeconds = 60n
export const disputeBond = parseEther('0.001')
/** The arbiter's MIN_BOND, staked once per service. */
export const serviceBond = parseEther('5')
/** Calls per batch transaction: under 15M gas limit with the batch overhead, two to a 30M-gas block. */
export const callsPerBatch = { createJob: 45, settle: 24, stake: 10, dispute: 50, rotate: 10, arbitrate: 30, reclaim: 50 }
export const batchesPerBlock = 2

/** The i-th job (from 0) of the bench market: its outcome, its service (of 50, from 5 sellers) and its buyer (of 24). */
export function planBenchJob(index: number): PlanBenchJobReturnType {
  return {
    outcome: outcomeCycle[index % outcomeCycle.length] as BenchOutcome,
    service: benchServices[index % benchServices.length] as BenchService,
    buyer: benchAccounts.buyers[index % benchAccounts.buyers.length] as Address,
  }
}
