import { initContract } from '@ts-rest/core'
import { z } from 'zod'
import { BuyerSchema } from './buyer.ts'
import { JobDisputeSchema } from './disputeEvent.ts'
import { ErrorBodySchema } from './error.ts'
import { EventsQuerySchema, FeedEventSchema } from './feed.ts'
import { HealthSchema } from './health.ts'
import { JobDetailSchema, refineJobKeys } from './job.ts'
import { BuyerQuerySchema, JobsQuerySchema, SellerQuerySchema } from './jobsQuery.ts'
import { JobListSchema, ServiceListSchema } from './lists.ts'
import { AddressInputSchema, TransactionHashInputSchema, UintStringSchema } from './primitives.ts'
import { SellerSchema } from './seller.ts'
import { ServiceSchema } from './service.ts'
import { ServiceEventListSchema } from './serviceEvent.ts'
import { StatsSchema } from './stats.ts'
import { NoQuerySchema } from './strictParameters.ts'
import { TeeEvidenceSchema, TeeVerdictListSchema, TeeVerdictSchema } from './tee.ts'
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
        query: NoQuerySchema,
        responses: { 200: HealthSchema, 400: ErrorBodySchema, 503: HealthSchema },
        summary: 'Indexer health',
        description:
          'Health record of the indexer. 200 with `ok: true` once the initial back-fill has reached the chain head and the last poll succeeded within 3 poll intervals, while the node serves the configured chain and no served record is known to differ from the chain; otherwise 503 with `ok: false` and the same record, whose `problems` say why.',
      },
    },
    services: {
      listServices: {
        method: 'GET',
        path: '/v1/services',
        query: NoQuerySchema,
        responses: { 200: ServiceListSchema, 400: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
        summary: 'List services',
        description: "Every registered seller's services, active or not. `count` equals the length of `services`.",
      },
      getService: {
        method: 'GET',
        path: '/v1/services/:id',
        pathParams: IdPathSchema,
        query: NoQuerySchema,
        responses: { 200: ServiceSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
        summary: 'Get a service',
        description:
          'One service by id. 400 when `id` is not a canonical decimal unsigned integer; 404 when no service has that id.',
      },
      getServiceEvents: {
        method: 'GET',
        path: '/v1/services/:id/events',
        pathParams: IdPathSchema,
        query: NoQuerySchema,
        responses: { 200: ServiceEventListSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
        summary: "A service's history",
        description:
          "The service's registry events, oldest first: registration, updates of price and status, delisting, and signing-key rotations with the old and new key, so that the key in force at any block can be read. `count` equals the length of `events`. 400 when `id` is not a canonical decimal unsigned integer; 404 when no service has that id.",
      },
      listTeeVerdicts: {
        method: 'GET',
        path: '/v1/services/tee',
        query: NoQuerySchema,
        responses: { 200: TeeVerdictListSchema, 400: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
        summary: "Every service's TEE verdict",
        description:
          'The TEE verdict of every service checked so far, by ascending serviceId, for pages that show many services. A service indexed moments ago may not be listed yet. `count` equals the length of `verdicts`.',
      },
      getTeeVerdict: {
        method: 'GET',
        path: '/v1/services/:id/tee',
        pathParams: IdPathSchema,
        query: NoQuerySchema,
        responses: { 200: TeeVerdictSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
        summary: "A service's TEE verdict",
        description:
          "Whether the service's signing key lives in a TEE, as this indexer checked it: the provider's 0G record, its TDX quote verified to Intel's root (the devnet's own root on the devnet only), the TCB policy, the quote's binding of the signing key, and the compose hash; each check with its outcome and reason. Checked again when the signing key changes and when the verdict expires. 404 `service_not_found` for an unknown id, `tee_verdict_pending` before the service's first check.",
      },
      getTeeEvidence: {
        method: 'GET',
        path: '/v1/services/:id/tee/evidence',
        pathParams: IdPathSchema,
        query: NoQuerySchema,
        responses: { 200: TeeEvidenceSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
        summary: "The evidence behind a service's TEE verdict",
        description:
          'The raw evidence of the last check: the quote, the collateral it was verified with, the event log and app compose as served, the nonce sent and the time of the fetch: enough to verify it again offline (`npm run tee:verify`) or in a browser. 404 `service_not_found` for an unknown id, `tee_evidence_not_found` when the last check fetched no quote.',
      },
    },
    jobs: {
      listJobs: {
        method: 'GET',
        path: '/v1/jobs',
        query: JobsQuerySchema,
        responses: { 200: JobListSchema, 400: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
        summary: 'List and filter jobs',
        description:
          'Jobs, newest first (highest jobId first), a page at a time. The filters `buyer`, `seller`, `serviceId` and `state` combine with AND. ' +
          '`limit` defaults to 50 and accepts integers from 1 to 1000. Each answer carries `nextCursor`: pass it as `cursor` (with the same filters) ' +
          'for the next page; it is null on the last page, and stays valid while new jobs arrive. `count` equals the length of `jobs`. ' +
          'A malformed, repeated or unknown parameter, or a cursor from another path or filters, is a 400.',
      },
      getJob: {
        method: 'GET',
        path: '/v1/jobs/:id',
        pathParams: IdPathSchema,
        query: NoQuerySchema,
        responses: { 200: refineJobKeys(JobDetailSchema), 400: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
        summary: 'Get a job',
        description:
          'One job by id with its on-chain history. From state 2 (Attested) on it carries the attestation. 400 when `id` is not a canonical decimal unsigned integer; 404 when no job has that id.',
      },
      getJobDispute: {
        method: 'GET',
        path: '/v1/jobs/:id/dispute',
        pathParams: IdPathSchema,
        query: NoQuerySchema,
        responses: { 200: JobDisputeSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
        summary: "A job's dispute",
        description:
          "The job's dispute events with their arguments, oldest first: who disputed and the bond (DisputeOpened), and how arbitration split it, the failed dispute's bond (DisputeFailed) or the slashed service bond (JobSlashed, Slashed). " +
          "Empty `events` for a job never disputed. The job's `events` name the same events without their arguments. 400 when `id` is not a canonical decimal unsigned integer; 404 when no job has that id.",
      },
    },
    sellers: {
      getSeller: {
        method: 'GET',
        path: '/v1/sellers/:address',
        pathParams: AddressPathSchema,
        query: SellerQuerySchema,
        responses: { 200: SellerSchema, 400: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
        summary: 'Get everything of one seller',
        description:
          "The seller's services and jobs, newest first; the jobs a page at a time (`limit` default 1000, `cursor` from `nextCursor`). " +
          '`seller` is the requested address, EIP-55 checksummed; a seller with nothing gets empty arrays. 400 when `address` is not 0x followed by 40 hex digits (any case).',
      },
    },
    buyers: {
      getBuyer: {
        method: 'GET',
        path: '/v1/buyers/:address',
        pathParams: AddressPathSchema,
        query: BuyerQuerySchema,
        responses: { 200: BuyerSchema, 400: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
        summary: 'Get the jobs of one buyer',
        description:
          'The jobs the address paid for, newest first, a page at a time (`limit` default 50, `cursor` from `nextCursor`). ' +
          '`buyer` is the requested address, EIP-55 checksummed; an address that paid for nothing gets an empty array. 400 when `address` is not 0x followed by 40 hex digits (any case).',
      },
    },
    stats: {
      getStats: {
        method: 'GET',
        path: '/v1/stats',
        query: NoQuerySchema,
        responses: { 200: StatsSchema, 400: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
        summary: 'Aggregate statistics',
        description: 'Service and job counts and the total settled amount, derived from events.',
      },
    },
    transactions: {
      getTransaction: {
        method: 'GET',
        path: '/v1/transactions/:hash',
        pathParams: HashPathSchema,
        query: NoQuerySchema,
        responses: { 200: TransactionSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
        summary: 'Find what a transaction did',
        description:
          "The market events a transaction emitted (job events, the arbiter's about a dispute among them, and registry events), each with the job or service it is about: the way from a transaction hash to its jobs and services. 400 when `hash` is not 0x followed by 64 hex digits (any case); 404 when the indexer holds no market event of that transaction.",
      },
    },
    feed: {
      streamEvents: {
        method: 'GET',
        path: '/v1/events',
        query: EventsQuerySchema,
        responses: {
          200: c.otherResponse({ contentType: 'text/event-stream', body: FeedEventSchema }),
          400: ErrorBodySchema,
          429: ErrorBodySchema,
          503: ErrorBodySchema,
        },
        summary: 'Live feed of job and service changes',
        description:
          'Server-Sent Events: each change the indexer applies, as it applies it. A `job` or `service` event holds the whole record as `GET /v1/jobs/:id` or `GET /v1/services/:id` answers it, with `change` and the chain position; a `head` event follows each indexed block, so a filtered stream still moves its id on. ' +
          'The event id is a chain cursor: send it back as `Last-Event-ID` (or `?after=`) to get every change after it, on any replica. A cursor on a branch the chain left gets a `reorg` event first; one too old for the kept history, or of another chain, gets one `reset` event (read the REST API again). ' +
          'A comment every 15 s keeps the connection alive; a stream ends after its longest life, or when its client stops reading, and is resumed from its id. ' +
          'Refusals come before the stream, as JSON: 400 for a bad filter or id, 429 with `Retry-After` over the caps on streams per client address and in total, 503 until the initial back-fill is done.',
      },
    },
  },
  { strictStatusCodes: true },
)

export type MarketContract = typeof marketContract
