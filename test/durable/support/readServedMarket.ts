import { createMarketClient } from '../../../client/createMarketClient.ts'
import type { JobDetail } from '../../../contract/job.ts'
import type { MarketSnapshot } from '../../indexer/support/snapshotStore.ts'

/** What a running server answers, through the typed client, in the shape of `readChainMarket`. */
export async function readServedMarket(baseUrl: string): Promise<MarketSnapshot> {
  const client = createMarketClient({ baseUrl })
  const [services, jobs, stats] = await Promise.all([client.services.listServices(), client.jobs.listJobs({ query: { limit: 1000 } }), client.stats.getStats()])
  if (services.status !== 200 || jobs.status !== 200 || stats.status !== 200)
    throw new Error(`${baseUrl} answered ${services.status}, ${jobs.status}, ${stats.status}`)
  const details = await Promise.all(
    [...jobs.body.jobs].reverse().map(async ({ jobId }) => {
      const detail = await client.jobs.getJob({ params: { id: jobId } })
      if (detail.status !== 200) throw new Error(`${baseUrl} answered ${detail.status} for job ${jobId}`)
      return detail.body as JobDetail
    }),
  )
  const disputes = await Promise.all(
    details.map(async ({ jobId }) => {
      const dispute = await client.jobs.getJobDispute({ params: { id: jobId } })
      if (dispute.status !== 200) throw new Error(`${baseUrl} answered ${dispute.status} for job ${jobId}'s dispute`)
      return dispute.body
    }),
  )
  return { services: [...services.body.services], jobs: details, stats: stats.body, disputes: disputes.filter(({ count }) => count > 0) }
}

/** The bodies a server answers, as text: two servers serving the same index answer the same bytes. */
export async function readServedBodies(baseUrl: string, paths: readonly string[]): Promise<string[]> {
  return Promise.all(paths.map(async (path) => (await fetch(`${baseUrl}${path}`)).text()))
}
