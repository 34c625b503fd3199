import { createTestClient, custom, encodeFunctionData } from 'viem'
import { escrowAbi } from '../../chain/abi/escrow.ts'
import { plannedJobs, timeTravelSeconds } from './marketPlan.ts'
import type { SeedRun } from './SeedRun.ts'

/** Moves the chain's clock past the short timeouts, then the buyers reclaim their expired jobs. */
export async function expireSeedJobs({ client, deployment, buyers, jobIds, step }: SeedRun): Promise<void> {
  const testClient = createTestClient({ mode: 'hardhat', transport: custom(client) })
  await step('move the clock past the short timeouts', async () => {
    await testClient.increaseTime({ seconds: timeTravelSeconds })
    await testClient.mine({ blocks: 1 })
  })
  await Promise.all(
    plannedJobs.flatMap((job, index) =>
      job.outcome !== 'expired'
        ? []
        : [
            step(`reclaim expired job ${jobIds[index]}`, () =>
              buyers[job.buyerIndex]!.send({
                to: deployment.escrow,
                data: encodeFunctionData({ abi: escrowAbi, functionName: 'reclaimExpired', args: [jobIds[index]!] }),
              }),
            ),
          ],
    ),
  )
}
