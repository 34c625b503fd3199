import type { Address } from 'viem'
import type { z } from 'zod'
import { parseRetryAfter } from '../../contract/parseRetryAfter.ts'
import { marketContract } from '../../contract/router.ts'
import { IndexerFeedError } from '../../errors/seller.ts'
import type { JobCreatedRecord } from './scanJobCreated.ts'
import { toJobCreatedRecord } from './toJobCreatedRecord.ts'

export type ReadIndexerPendingJobsParameters = {
  /** The REST indexer's base URL. */
  indexerUrl: string
  /** The seller accounts whose jobs are read. */
  sellers: readonly Address[]
  /** Only jobs of these services are kept. */
  serviceIds: ReadonlySet<bigint>
  /** Deadline of each request, headers and body. */
  timeoutMs: number
}

export type ReadIndexerPendingJobsReturnType = JobCreatedRecord[]

/** A walk longer than this is not a seller's Pending jobs but an indexer handing out cursors forever. */
const maxPages = 1_000

/**
 * The Pending jobs of the seller's services as an indexer's REST API holds them: `GET /v1/jobs`
 * with `seller` and `state=0`, a page of 1,000 at a time, then each job's `GET /v1/jobs/:id` for
 * the transaction of its `JobCreated`. Throws IndexerFeedError on any answer but a valid 200.
 */
export async function readIndexerPendingJobs({ indexerUrl, sellers, serviceIds, timeoutMs }: ReadIndexerPendingJobsParameters): Promise<ReadIndexerPendingJobsReturnType> {
  const base = indexerUrl.replace(/\/+$/, '')
  const records: JobCreatedRecord[] = []
  for (const seller of sellers) {
    let cursor: string | null = null
    for (let page = 0; page === 0 || cursor !== null; page += 1) {
      if (page === maxPages) throw new IndexerFeedError({ url: indexerUrl, problem: `gave more than ${maxPages} pages of Pending jobs for ${seller}` })
      const query = new URLSearchParams({ seller, state: '0', limit: '1000', ...(cursor === null ? {} : { cursor }) })
      const list: z.output<typeof listSchema> = await getJson(`${base}/v1/jobs?${query}`, listSchema, { indexerUrl, timeoutMs })
      for (const job of list.jobs) {
        if (!serviceIds.has(BigInt(job.serviceId))) continue
        const detail = await getJson(`${base}/v1/jobs/${job.jobId}`, detailSchema, { indexerUrl, timeoutMs })
        const record = toJobCreatedRecord(detail)
        if (record !== undefined) records.push(record)
      }
      cursor = list.nextCursor
    }
  }
  return records
}

const listSchema = marketContract.jobs.listJobs.responses[200]
const detailSchema = marketContract.jobs.getJob.responses[200]

async function getJson<schema extends z.ZodTypeAny>(url: string, schema: schema, { indexerUrl, timeoutMs }: { indexerUrl: string; timeoutMs: number }): Promise<z.output<schema>> {
  const path = url.slice(url.indexOf('/v1/'))
  let body: unknown
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) })
    if (response.status !== 200) {
      await response.body?.cancel()
      throw new IndexerFeedError({ url: indexerUrl, problem: `answered GET ${path} with HTTP ${response.status}`, retryAfterMs: parseRetryAfter(response.headers.get('retry-after')) })
    }
    body = await response.json()
  } catch (error) {
    if (error instanceof IndexerFeedError) throw error
    throw new IndexerFeedError({ url: indexerUrl, problem: `did not answer GET ${path} in time or in JSON`, cause: error })
  }
  const parsed = schema.safeParse(body)
  if (!parsed.success) throw new IndexerFeedError({ url: indexerUrl, problem: `answered GET ${path} with what the API's contract does not allow`, cause: parsed.error })
  return parsed.data
}
