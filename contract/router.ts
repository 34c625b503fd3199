import { initContract } from '@ts-rest/core'
import { z } from 'zod'
import { ErrorBodySchema } from './error.ts'
import { HealthSchema } from './health.ts'
import { JobDetailSchema, refineJobKeys } from './job.ts'
import { JobsQuerySchema } from './jobsQuery.ts'
import { JobListSchema, ServiceListSchema } from './lists.ts'
import { AddressInputSchema, TransactionHashInputSchema, UintStringSchema } from './primitives.ts'
import { SellerSchema } from './seller.ts'
import { ServiceSchema } from './service.ts'
import { ServiceEventListSchema } from './serviceEvent.ts'
import { StatsSchema } from './stats.ts'
import { TransactionSchema } from './transaction.ts'

const c = initContract()

const IdPathSchema = z.object({
  id: UintStringSchema,
})

const AddressPathSchema = z.object({
  address: AddressInputSchema,
})

const HashPathSchema = z.object({
  hash: TransactionHashInputSchema,
})

export const marketContract = c.router(
  {
    health: {
      getHealth: {
        method: 'GET',
        path: '/healthz',
        responses: { 200: HealthSchema, 503: HealthSchema },
        summary: 'Indexer health',
        description:
          'Health record of the indexer. 200 with `ok: true` once the initial back-fill has reached the chain head and the last poll succeeded within 3 poll intervals, while the node serves the configured chain and no served record is known to differ from the chain; otherwise 503 with `ok: false` and the same record, whose `problems` say why.',
      },
    },
    services: {
      listServices: {
        method: 'GET',
        path: '/v1/services',
        responses: { 200: ServiceListSchema, 503: ErrorBodySchema },
        summary: 'List services',
        description: "Every registered seller's services, active or not. `count` equals the length of `services`.",
      },
      getService: {
        method: 'GET',
        path: '/v1/services/:id',
        pathParams: IdPathSchema,
        responses: { 200: ServiceSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, 503: ErrorBodySchema },
        summary: 'Get a service',
        description:
          'One service by id. 400 when `id` is not a canonical decimal unsigned integer; 404 when no service has that id.',
      },
      getServiceEvents: {
        method: 'GET',
        path: '/v1/services/:id/events',
        pathParams: IdPathSchema,
        responses: { 200: ServiceEventListSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, 503: ErrorBodySchema },
        summary: "A service's history",
        description:
          "The service's registry events, oldest first: registration, updates of price and status, delisting, and signing-key rotations with the old and new key, so that the key in force at any block can be read. `count` equals the length of `events`. 400 when `id` is not a canonical decimal unsigned integer; 404 when no service has that id.",
      },
    },
    jobs: {
      listJobs: {
        method: 'GET',
        path: '/v1/jobs',
        query: JobsQuerySchema,
        responses: { 200: JobListSchema, 400: ErrorBodySchema, 503: ErrorBodySchema },
        summary: 'List recent jobs',
        description:
          'The most recent jobs, newest first (highest jobId first). `limit` defaults to 50 and accepts integers from 1 to 1000; any other value is a 400. `count` equals the length of `jobs`.',
      },
      getJob: {
        method: 'GET',
        path: '/v1/jobs/:id',
        pathParams: IdPathSchema,
        responses: { 200: refineJobKeys(JobDetailSchema), 400: ErrorBodySchema, 404: ErrorBodySchema, 503: ErrorBodySchema },
        summary: 'Get a job',
        description:
          'One job by id with its on-chain history. From state 2 (Attested) on it carries the attestation. 400 when `id` is not a canonical decimal unsigned integer; 404 when no job has that id.',
      },
    },
    sellers: {
      getSeller: {
        method: 'GET',
        path: '/v1/sellers/:address',
        pathParams: AddressPathSchema,
        responses: { 200: SellerSchema, 400: ErrorBodySchema, 503: ErrorBodySchema },
        summary: 'Get everything of one seller',
        description:
          "The seller's services and jobs, newest first. `seller` echoes the address exactly as requested; a seller with nothing gets empty arrays. 400 when `address` is not 0x followed by 40 hex digits (any case).",
      },
    },
    stats: {
      getStats: {
        method: 'GET',
        path: '/v1/stats',
        responses: { 200: StatsSchema, 503: ErrorBodySchema },
        summary: 'Aggregate statistics',
        description: 'Service and job counts and the total settled amount, derived from events.',
      },
    },
    transactions: {
      getTransaction: {
        method: 'GET',
        path: '/v1/transactions/:hash',
        pathParams: HashPathSchema,
        responses: { 200: TransactionSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, 503: ErrorBodySchema },
        summary: 'Find what a transaction did',
        description:
          "The market events a transaction emitted (job events, the arbiter's about a dispute among them, and registry events), each with the job or service it is about: the way from a transaction hash to its jobs and services. 400 when `hash` is not 0x followed by 64 hex digits (any case); 404 when the indexer holds no market event of that transaction.",
      },
    },
  },
  { strictStatusCodes: true },
)

export type MarketContract = typeof marketContract
