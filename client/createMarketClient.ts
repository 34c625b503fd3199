import { initClient, type InitClientReturn } from '@ts-rest/core'
import { marketContract, type MarketContract } from '../contract/router.ts'

export type CreateMarketClientParameters = {
  /** Where the REST indexer answers, without a trailing slash, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string
  /** Sent with every request, e.g. an API gateway's key. */
  baseHeaders?: Record<string, string>
  /** Checks every 2xx/4xx body against the contract's zod schema (off by default: costs CPU per answer). */
  validateResponse?: boolean
}

type MarketClientArgs = { baseUrl: string; baseHeaders: Record<string, string>; validateResponse: boolean }

/** The ts-rest client of `contract/router.ts`: one typed function per route, narrowed on `status`. */
export type MarketClient = InitClientReturn<MarketContract, MarketClientArgs>

export type CreateMarketClientReturnType = MarketClient

/**
 * The typed REST client: `await client.jobs.getJob({ params: { id: '7' } })` answers
 * `{ status: 200, body: JobDetail } | { status: 400 | 404, body: ErrorBody }`. Uses the global
 * `fetch`, so it runs unchanged in browsers, Node 20+, Deno and Bun.
 */
export function createMarketClient({
  baseUrl,
  baseHeaders = {},
  validateResponse = false,
}: CreateMarketClientParameters): CreateMarketClientReturnType {
  return initClient(marketContract, { baseUrl: baseUrl.replace(/\/+$/, ''), baseHeaders, validateResponse })
}
