import { initClient } from '@ts-rest/core'
import { JobSchema } from '../../contract/job.ts'
import { signingKeyAtAttestation } from '../../contract/signingKeyAtAttestation.ts'
import { marketContract } from '../../contract/router.ts'
import { IndexerResponseError } from '../../errors/mcp.ts'
import { JobNotFoundError, ServiceNotFoundError } from '../../errors/notFound.ts'
import type { MarketSource } from './MarketSource.ts'

export type CreateIndexerSourceParameters = {
  /** Base URL of the REST indexer, e.g. `http://127.0.0.1:8080`. */
  indexerUrl: string
  /** Per-request time limit. */
  timeoutMs?: number
}

export type CreateIndexerSourceReturnType = MarketSource

/**
 * Reads through a REST indexer with the contract's typed client, answers validated against the
 * contract schemas. The indexer is a cache of the chain (typically under 6 s behind).
 */
export function createIndexerSource({
  indexerUrl,
  timeoutMs = 10_000,
}: CreateIndexerSourceParameters): CreateIndexerSourceReturnType {
  const client = initClient(marketContract, { baseUrl: indexerUrl, validateResponse: true, throwOnUnknownStatus: true })
  const fetchOptions = () => ({ signal: AbortSignal.timeout(timeoutMs) })
  const request = async <T>(send: () => Promise<T>): Promise<T> => {
    try {
      return await send()
    } catch (cause) {
      // Unreachable, timed out, an undeclared status, or a body the contract does not allow.
      throw new IndexerResponseError({ url: indexerUrl, cause })
    }
  }

  return {
    async listServices() {
      const response = await request(() => client.services.listServices({ fetchOptions: fetchOptions() }))
      if (response.status !== 200) throw new IndexerResponseError({ url: indexerUrl, status: response.status })
      return response.body.services
    },
    async getService({ serviceId }) {
      const response = await request(() =>
        client.services.getService({ params: { id: serviceId.toString() }, fetchOptions: fetchOptions() }),
      )
      if (response.status === 404) throw new ServiceNotFoundError({ serviceId })
      if (response.status !== 200) throw new IndexerResponseError({ url: indexerUrl, status: response.status })
      return response.body
    },
    async getJob({ jobId }) {
      const response = await request(() =>
        client.jobs.getJob({ params: { id: jobId.toString() }, fetchOptions: fetchOptions() }),
      )
      if (response.status === 404) throw new JobNotFoundError({ jobId })
      if (response.status !== 200) throw new IndexerResponseError({ url: indexerUrl, status: response.status })
      // The REST detail adds the event history; get_job answers the document's Job without it.
      return JobSchema.parse(response.body)
    },
    async attestedSigner({ job }) {
      const [detail, history] = await Promise.all([
        request(() => client.jobs.getJob({ params: { id: job.jobId }, fetchOptions: fetchOptions() })),
        request(() => client.services.getServiceEvents({ params: { id: job.serviceId }, fetchOptions: fetchOptions() })),
      ])
      if (detail.status !== 200) throw new IndexerResponseError({ url: indexerUrl, status: detail.status })
      if (history.status !== 200) throw new IndexerResponseError({ url: indexerUrl, status: history.status })
      return signingKeyAtAttestation(detail.body.events, history.body.events)
    },
  }
}
