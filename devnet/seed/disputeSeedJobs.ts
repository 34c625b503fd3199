import { encodeFunctionData } from 'viem'
import { arbiterAbi } from '../../chain/abi/arbiter.ts'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { type JobOutcome, disputeBond, plannedJobs } from './marketPlan.ts'
import type { SeedRun } from './SeedRun.ts'

const disputedOutcomes = new Set<JobOutcome>(['disputed', 'disputeFailed', 'slashed'])
const arbitratedOutcomes = new Set<JobOutcome>(['disputeFailed', 'slashed'])

/** Buyers dispute the planned jobs in parallel, then arbitrate some of the disputes. */
export async function disputeSeedJobs({ deployment, buyers, jobIds, step }: SeedRun): Promise<void> {
  const buyerOf = (index: number) => buyers[plannedJobs[index]!.buyerIndex]!
  const indexesOf = (outcomes: ReadonlySet<JobOutcome>): number[] =>
    plannedJobs.flatMap((job, index) => (outcomes.has(job.outcome) ? [index] : []))
  await Promise.all(
    indexesOf(disputedOutcomes).map((index) =>
      step(`dispute job ${jobIds[index]}`, () =>
        buyerOf(index).send({
          to: deployment.escrow,
          data: encodeFunctionData({ abi: escrowAbi, functionName: 'dispute', args: [jobIds[index]!] }),
          value: disputeBond,
        }),
      ),
    ),
  )
  // Anyone may arbitrate; here the disputer does. One at a time, so the first slash of the
  // rotated service takes its whole bond and the second finds it empty, on every run.
  for (const index of indexesOf(arbitratedOutcomes)) {
    await step(`arbitrate the dispute on job ${jobIds[index]}`, () =>
      buyerOf(index).send({
        to: deployment.arbiter,
        data: encodeFunctionData({ abi: arbiterAbi, functionName: 'arbitrate', args: [jobIds[index]!] }),
      }),
    )
  }
}
