// What a frontend bundles: the typed client, the job watcher and the offline attestation check.
import { createMarketClient, verifyJobAttestationOffline, watchJob } from 'tee-market/client'

export async function followJob(baseUrl: string, jobId: string, onState: (stateName: string) => void): Promise<boolean> {
  const client = createMarketClient({ baseUrl })
  for await (const job of watchJob(client, { jobId })) onState(job.stateName)
  const job = await client.jobs.getJob({ params: { id: jobId } })
  if (job.status !== 200) return false
  const service = await client.services.getService({ params: { id: job.body.serviceId } })
  return service.status === 200 && verifyJobAttestationOffline({ job: job.body, service: service.body }).ok
}
