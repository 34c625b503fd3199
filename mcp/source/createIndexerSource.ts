import { initClient } from '@ts-rest/core'
import type { z } from 'zod'
import { JobSchema } from '../../contract/job.ts'
import { signingKeyAtAttestation } from '../../contract/signingKeyAtAttestation.ts'
import { marketContract } from '../../contract/router.ts'
import { IndexerRateLimitedError, IndexerResponseError } from '../../errors/mcp.ts'
import { JobNotFoundError, ServiceNotFoundError, TeeVerdictPendingError } from '../../errors/notFound.ts'
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

type IndexerAnswer = { status: number; body: unknown; headers: Headers }

const { services, jobs } = marketContract

/**
 * Reads through a REST indexer with the contract's typed client. Each answer is checked once,
 * against the contract schema of what the tool returns (the job without its events, the events
 * only where they are read), not by the client as well; and asked for uncompressed, since the
 * indexer is a hop inside the operator's network, where gzip would cost both processes CPU on every
 * call to save bandwidth that is not short. The indexer is a cache of the chain (typically under
 * 6 s behind).
 */
export function createIndexerSource({
  indexerUrl,
  timeoutMs = 10_000,
  forwardedFor = () => undefined,
}: CreateIndexerSourceParameters): CreateIndexerSourceReturnType {
  const client = initClient(marketContract, { baseUrl: indexerUrl, throwOnUnknownStatus: true, baseHeaders: { 'accept-encoding': 'identity' } })
  const options = () => {
    const caller = forwardedFor()
    return {
      fetchOptions: { signal: AbortSignal.timeout(timeoutMs) },
      extraHeaders: caller === undefined ? {} : { 'x-forwarded-for': caller },
    }
  }
  /** The answer's body as `schema` reads it, when its status is 200; else whatever the status says. */
  const read = async <schema extends z.ZodTypeAny>(
    send: () => Promise<IndexerAnswer>,
    schema: schema,
    notFound?: (body: unknown) => Error,
  ): Promise<z.output<schema>> => {
    let answer: IndexerAnswer
    try {
      answer = await send()
    } catch (cause) {
      // Unreachable, timed out, or an undeclared status.
      throw new IndexerResponseError({ url: indexerUrl, cause })
    }
    if (answer.status === 404 && notFound !== undefined) throw notFound(answer.body)
    if (answer.status === 429) throw new IndexerRateLimitedError({ url: indexerUrl, retryAfter: answer.headers.get('retry-after') })
    if (answer.status !== 200) throw new IndexerResponseError({ url: indexerUrl, status: answer.status })
    const parsed = schema.safeParse(answer.body)
    if (!parsed.success) throw new IndexerResponseError({ url: indexerUrl, cause: parsed.error })
    return parsed.data
  }

  return {
    async listServices() {
      const list = await read(() => client.services.listServices(options()), services.listServices.responses[200])
      return list.services
    },
    getService({ serviceId }) {
      const params = { id: serviceId.toString() }
      return read(() => client.services.getService({ params, ...options() }), services.getService.responses[200], () => new ServiceNotFoundError({ serviceId }))
    },
    getJob({ jobId }) {
      const params = { id: jobId.toString() }
      // The REST detail adds the event history; get_job answers the document's Job without it.
      return read(() => client.jobs.getJob({ params, ...options() }), JobSchema, () => new JobNotFoundError({ jobId }))
    },
    async attestedSigner({ job }) {
      const [detail, history] = await Promise.all([
        read(() => client.jobs.getJob({ params: { id: job.jobId }, ...options() }), jobs.getJob.responses[200]),
        read(() => client.services.getServiceEvents({ params: { id: job.serviceId }, ...options() }), services.getServiceEvents.responses[200]),
      ])
      return signingKeyAtAttestation(detail.events, history.events)
    },
    getTeeVerdict({ serviceId }) {
      const params = { id: serviceId.toString() }
      const notFound = (body: unknown) =>
        errorCodeOf(body) === 'tee_verdict_pending' ? new TeeVerdictPendingError({ serviceId }) : new ServiceNotFoundError({ serviceId })
      return read(() => client.services.getTeeVerdict({ params, ...options() }), services.getTeeVerdict.responses[200], notFound)
    },
    async listTeeVerdicts() {
      const list = await read(() => client.services.listTeeVerdicts(options()), services.listTeeVerdicts.responses[200])
      return list.verdicts
    },
  }
}

/** The `error.code` of an error body, if it has one: the indexer's 404s say which kind of thing is missing. */
function errorCodeOf(body: unknown): unknown {
  const error = (body as { error?: { code?: unknown } } | null)?.error
  return typeof error === 'object' && error !== null ? error.code : undefined
}
