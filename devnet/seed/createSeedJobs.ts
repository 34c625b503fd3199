import { encodeFunctionData, stringToHex } from 'viem'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { expiringTimeoutSeconds, pendingTimeoutSeconds, plannedJobs, plannedServices, prompts, settledTimeoutSeconds } from './marketPlan.ts'
import type { SeedRun } from './SeedRun.ts'

/** Creates the planned jobs one by one, so that their ids follow the plan; the timeout fits each job's outcome. */
export async function createSeedJobs({ deployment, buyers, serviceIds, jobIds, step }: SeedRun): Promise<void> {
  for (const [index, job] of plannedJobs.entries()) {
    const service = plannedServices[job.serviceIndex]!
    const timeout =
      job.outcome === 'pending' ? pendingTimeoutSeconds : job.outcome === 'expired' ? expiringTimeoutSeconds : settledTimeoutSeconds
    await step(`create job ${jobIds[index]}`, () =>
      buyers[job.buyerIndex]!.send({
        to: deployment.escrow,
        data: encodeFunctionData({
          abi: escrowAbi,
          functionName: 'createJob',
          args: [serviceIds[job.serviceIndex]!, stringToHex(prompts[index % prompts.length]!), timeout],
        }),
        value: service.pricePerCall,
      }),
    )
  }
}
