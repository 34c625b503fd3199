// A consumer of the packed tarball, compiled by the test with moduleResolution `node16` and
// `bundler`: watches a job until a final state, then checks its attestation offline.
import { parseAttestationText } from 'tee-market/attestation'
import { createMarketClient, verifyJobAttestationOffline, watchJob, type JobDetail, type MarketClient } from 'tee-market/client'
import { JobDetailSchema, marketContract } from 'tee-market/contract'

const [baseUrl = '', jobId = ''] = process.argv.slice(2)
const client: MarketClient = createMarketClient({ baseUrl })

for await (const job of watchJob(client, { jobId, pollingInterval: 100 })) {
  const parsed: JobDetail = JobDetailSchema.parse(job)
  console.log(JSON.stringify({ state: parsed.stateName }))
}

const job = await client.jobs.getJob({ params: { id: jobId } })
if (job.status !== 200) throw new Error(`GET /v1/jobs/${jobId} answered ${job.status}`)
const service = await client.services.getService({ params: { id: job.body.serviceId } })
if (service.status !== 200) throw new Error(`GET /v1/services/${job.body.serviceId} answered ${service.status}`)
const verified = verifyJobAttestationOffline({ job: job.body, service: service.body })
const fields = job.body.attestationText === undefined ? null : parseAttestationText(job.body.attestationText)
console.log(JSON.stringify({ verified: verified.ok, providerType: fields?.providerType, routes: Object.keys(marketContract).sort() }))

/** Never called: the client is typed from the contract, so a wrong parameter does not compile. */
export async function typedOnly(): Promise<void> {
  // @ts-expect-error `id` is the only path parameter of getJob
  await client.jobs.getJob({ params: { jobId: '1' } })
  const answer = await client.stats.getStats()
  // @ts-expect-error the stats body has no `foo`
  if (answer.status === 200) console.log(answer.body.foo)
}
