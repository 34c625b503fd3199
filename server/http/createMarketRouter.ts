import { checkZodSchema, type AppRoute } from '@ts-rest/core'
import { initServer, type RouterImplementation } from '@ts-rest/fastify'
import type { FastifyRequest } from 'fastify'
import { marketContract, type MarketContract } from '../../contract/router.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import type { AnswerHooks } from './addAnswerHooks.ts'
import type { ContractHandler } from './ContractHandler.ts'
import { getBuyerHandler } from './handlers/getBuyerHandler.ts'
import { getHealthHandler } from './handlers/getHealthHandler.ts'
import { getJobDisputeHandler } from './handlers/getJobDisputeHandler.ts'
import { getJobHandler } from './handlers/getJobHandler.ts'
import { getSellerHandler } from './handlers/getSellerHandler.ts'
import { getServiceEventsHandler } from './handlers/getServiceEventsHandler.ts'
import { getServiceHandler } from './handlers/getServiceHandler.ts'
import { getStatsHandler } from './handlers/getStatsHandler.ts'
import { getTeeEvidenceHandler } from './handlers/getTeeEvidenceHandler.ts'
import { getTeeVerdictHandler } from './handlers/getTeeVerdictHandler.ts'
import { getTransactionHandler } from './handlers/getTransactionHandler.ts'
import { listJobsHandler } from './handlers/listJobsHandler.ts'
import { listServicesHandler } from './handlers/listServicesHandler.ts'
import { listTeeVerdictsHandler } from './handlers/listTeeVerdictsHandler.ts'

export type CreateMarketRouterParameters = {
  store: StoreReader
  /** Each route's `onRequest` hook comes from here (ETag, 304, kept bodies). */
  answers: AnswerHooks
}

/** The routes answered with JSON through ts-rest; the event stream is a plugin of its own (registerEventStream). */
export type JsonContract = Omit<MarketContract, 'feed'>

export type CreateMarketRouterReturnType = RouterImplementation<JsonContract>

const s = initServer()

const jsonType = 'application/json; charset=utf-8'

/**
 * The contract's JSON routes for `s.plugin`: one handler per route, each reading the indexer's store.
 * ts-rest validates every part of a request the contract declares and sends the handler's
 * `{ status, body }`; the route's `onRequest` hook asks the handler's `version` first, so a 304
 * or a kept body never reaches it.
 */
export function createMarketRouter({ store, answers }: CreateMarketRouterParameters): CreateMarketRouterReturnType {
  const route = <R extends AppRoute>(appRoute: R, { version, answer }: ContractHandler<R>) => ({
    hooks: {
      onRequest: answers.onRequest({
        contentType: jsonType,
        version: (request) => {
          const input = parseVersionInput(appRoute, request)
          return input === undefined ? undefined : version(input as Parameters<typeof version>[0])
        },
      }),
    },
    handler: async (input: Parameters<typeof answer>[0]) => answer(input),
  })
  const { feed: _, ...jsonContract } = marketContract
  const { health, services, jobs, sellers, buyers, stats, transactions } = jsonContract
  return s.router(jsonContract, {
    health: { getHealth: route(health.getHealth, getHealthHandler({ store })) },
    services: {
      listServices: route(services.listServices, listServicesHandler({ store })),
      getService: route(services.getService, getServiceHandler({ store })),
      getServiceEvents: route(services.getServiceEvents, getServiceEventsHandler({ store })),
      listTeeVerdicts: route(services.listTeeVerdicts, listTeeVerdictsHandler({ store })),
      getTeeVerdict: route(services.getTeeVerdict, getTeeVerdictHandler({ store })),
      getTeeEvidence: route(services.getTeeEvidence, getTeeEvidenceHandler({ store })),
    },
    jobs: {
      listJobs: route(jobs.listJobs, listJobsHandler({ store })),
      getJob: route(jobs.getJob, getJobHandler({ store })),
      getJobDispute: route(jobs.getJobDispute, getJobDisputeHandler({ store })),
    },
    sellers: { getSeller: route(sellers.getSeller, getSellerHandler({ store })) },
    buyers: { getBuyer: route(buyers.getBuyer, getBuyerHandler({ store })) },
    stats: { getStats: route(stats.getStats, getStatsHandler({ store })) },
    transactions: { getTransaction: route(transactions.getTransaction, getTransactionHandler({ store })) },
  })
}

/**
 * The path and query parameters as the contract parses them, for `version`; undefined when they
 * are invalid (the handler then answers the 400, through ts-rest's own validation).
 */
function parseVersionInput(appRoute: AppRoute, request: FastifyRequest): { params: unknown; query: unknown } | undefined {
  const params = checkZodSchema(request.params, appRoute.pathParams, { passThroughExtraKeys: true })
  if (!params.success) return undefined
  const query = checkZodSchema(request.query, appRoute.query)
  return query.success ? { params: params.data, query: query.data } : undefined
}
