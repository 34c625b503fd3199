import { initClient } from '@ts-rest/core'
import { JobSchema } from '../../contract/job.ts'
import { signingKeyAtAttestation } from '../../contract/signingKeyAtAttestation.ts'
import { marketContract } from '../../contract/router.ts'
import { IndexerRateLimitedError, IndexerResponseError } from '../../errors/mcp.ts'
import { JobNotFoundError, ServiceNotFoundError } from '../../errors/notFound.ts'
import type { MarketSource } from './MarketSource.ts'

export type CreateIndexerSourceParameters = {
  /** Base URL of the REST indexer, e.g. `http://127.0.0.1:8080`. */
  indexerUrl: string
  /** Per-request time limit. */
  timeoutMs?: number
  /**
   * The address of the client this server is answering, sent as `X-Forwarded-For` so that an
   * indexer trusting this server (`--trust-proxy`) counts that client against its request limit,
   * not this server; undefined sends none.
   */
  forwardedFor?: (() => string | undefined) | undefined
}

export type CreateIndexerSourceReturnType = MarketSource

type IndexerAnswer = { status: number; headers: Headers }

/**
 * Reads through a REST indexer with the contract's typed client, answers validated against the
 * contract schemas. The indexer is a cache of the chain (typically under 6 s behind).
 */
export function createIndexerSource({
  indexerUrl,
  timeoutMs = 10_000,
  forwardedFor = () => undefined,
}: CreateIndexerSourceParameters): CreateIndexerSourceReturnType {
  const client = initClient(marketContract, { baseUrl: indexerUrl, validateResponse: true, throwOnUnknownStatus: true })
  const options = () => {
    const caller = forwardedFor()
    return {
      fetchOptions: { signal: AbortSignal.timeout(timeoutMs) },
      extraHeaders: caller === undefined ? {} : { 'x-forwarded-for': caller },
    }
  }
  const request = async <T>(send: () => Promise<T>): Promise<T> => {
    try {
      return await send()
    } catch (cause) {
      // Unreachable, timed out, an undeclared status, or a body the contract does not allow.
      throw new IndexerResponseError({ url: indexerUrl, cause })
    }
  }
  const refuse = ({ status, headers }: IndexerAnswer): never => {
    if (status === 429) throw new IndexerRateLimitedError({ url: indexerUrl, retryAfter: headers.get('retry-after') })
    throw new IndexerResponseError({ url: indexerUrl, status })
  }

  return {
    async listServices() {
      const response = await request(() => client.services.listServices(options()))
      if (response.status !== 200) return refuse(response)
      return response.body.services
    },
    async getService({ serviceId }) {
      const response = await request(() => client.services.getService({ params: { id: serviceId.toString() }, ...options() }))
      if (response.status === 404) throw new ServiceNotFoundError({ serviceId })
      if (response.status !== 200) return refuse(response)
      return response.body
    },
    async getJob({ jobId }) {
      const response = await request(() => client.jobs.getJob({ params: { id: jobId.toString() }, ...options() }))
      if (response.status === 404) throw new JobNotFoundError({ jobId })
      if (response.status !== 200) return refuse(response)
      // The REST detail adds the event history; get_job answers the document's Job without it.
      return JobSchema.parse(response.body)
    },
    async attestedSigner({ job }) {
      const [detail, history] = await Promise.all([
        request(() => client.jobs.getJob({ params: { id: job.jobId }, ...options() })),
        request(() => client.services.getServiceEvents({ params: { id: job.serviceId }, ...options() })),
      ])
      if (detail.status !== 200) return refuse(detail)
      if (history.status !== 200) return refuse(history)
      return signingKeyAtAttestation(detail.body.events, history.body.events)
    },
  }
}
