// The fixture of test/package/package.test.ts (not compiled with the project: it imports the packed package).
// An app on zod 4 that installed tee-market alone.
import { buildAttestationText, parseAttestationText } from 'tee-market/attestation'
import { createMarketClient, type Job, type MarketClient } from 'tee-market/client'
import { z } from 'zod'

// zod 4's own API (top-level z.email and z.int are zod 4 only), beside the client's bundled zod 3.
const Settings = z.object({ contact: z.email(), pageSize: z.int().min(1).max(1000) })
const settings = Settings.parse({ contact: 'ops@example.org', pageSize: 20 })

const client: MarketClient = createMarketClient({ baseUrl: process.argv[2] ?? 'http://127.0.0.1:9' })

export async function settledJobsOf(buyer: string): Promise<Job[]> {
  const jobs: Job[] = []
  let cursor: string | undefined
  do {
    const page = await client.jobs.listJobs({ query: { buyer, state: 3, limit: settings.pageSize, cursor } })
    if (page.status !== 200) throw new Error(page.body.error.message)
    jobs.push(...page.body.jobs)
    cursor = page.body.nextCursor ?? undefined
  } while (cursor !== undefined)
  return jobs
}

/** Never called: the client is typed from the contract. */
export async function typedOnly(): Promise<void> {
  // @ts-expect-error limit is a number
  await client.jobs.listJobs({ query: { limit: '20' } })
  // @ts-expect-error `id` is the only path parameter of getJob
  await client.jobs.getJob({ params: { jobId: '1' } })
  const stats = await client.stats.getStats()
  // @ts-expect-error the stats body has no `foo`
  if (stats.status === 200) console.log(stats.body.foo)
  for await (const event of client.events({ jobs: ['1'], types: ['job'] }, { signal: AbortSignal.timeout(1_000) })) {
    const lastId: string | undefined = event.id
    if (event.event === 'job') console.log(lastId, event.data.change, event.data.job?.stateName)
    // @ts-expect-error a head carries no job
    if (event.event === 'head') console.log(event.data.job)
  }
  // @ts-expect-error only job and service events can be chosen (head, reorg and reset always come)
  client.events({ types: ['head'] })
}

const hash = `0x${'ab'.repeat(32)}` as const
const text = buildAttestationText({ contentHash: hash, usageHash: hash, providerType: 'centralized', providerIdentity: 'openai', tlsCertFingerprint: hash })
console.log(JSON.stringify({ settings, providerType: parseAttestationText(text)?.providerType, client: typeof client.jobs.listJobs }))
