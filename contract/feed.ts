import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'
import { JobDetailSchema } from './job.ts'
import { once } from './jobsQuery.ts'
import { AddressInputSchema, Bytes32Schema, UintStringSchema } from './primitives.ts'
import { ServiceSchema } from './service.ts'
import { strictParameters } from './strictParameters.ts'

/** The record events a stream can be limited to (`types`); `head`, `reorg` and `reset` always come. */
export const feedRecordTypes = ['job', 'service'] as const

export const feedEventTypes = [...feedRecordTypes, 'head', 'reorg', 'reset'] as const

export type FeedEventType = (typeof feedEventTypes)[number]

export const feedChanges = ['created', 'updated', 'removed'] as const

/** Jobs one stream may name in `jobs`. */
export const feedJobsLimit = 100

/**
 * An event id: chain id, block number, the first 8 bytes of the hash of the indexed block that
 * holds it, and the log index (`c` for a state not tied to one log, `h` for a head). Opaque to a
 * client: it is sent back as `Last-Event-ID` or `?after=`, and means the same on every replica.
 */
export const FeedCursorSchema = extendApi(
  z
    .string()
    .max(128, { message: 'Expected at most 128 characters.' })
    .regex(/^[1-9][0-9]{0,15}-(0|[1-9][0-9]{0,19})-[0-9a-f]{16}-(0|[1-9][0-9]{0,9}|c|h)$/, {
      message: 'Expected an event id this API sent (the `id` of an event, e.g. "31337-120-1a2b3c4d5e6f7a8b-3").',
    })
    .describe('An event id this API sent: resume after it.'),
  { example: '31337-120-1a2b3c4d5e6f7a8b-3' },
)

const feedJobsMessage = `Expected up to ${feedJobsLimit} job ids, comma-separated canonical decimal integers, e.g. "1,2".`
const feedTypesMessage = `Expected event types from ${feedRecordTypes.join(', ')}, comma-separated, e.g. "job".`

/** A comma-separated list given once: each item checked by `item`, distinct, at most `max`. */
function commaList<item extends z.ZodTypeAny>(item: item, { max, message }: { max: number; message: string }) {
  return z
    .string({ invalid_type_error: 'Give the parameter once.' })
    .transform((text, context) => {
      const items = new Set<z.output<item>>()
      for (const part of text.split(',')) {
        const parsed = item.safeParse(part)
        if (!parsed.success || items.size >= max) {
          context.addIssue({ code: z.ZodIssueCode.custom, message })
          return z.NEVER
        }
        items.add(parsed.data)
      }
      return [...items]
    })
    .optional()
}

/** `GET /v1/events`: the filters combine with AND; `after` resumes where a connection left off. */
export const EventsQuerySchema = strictParameters(
  {
    jobs: extendApi(commaList(UintStringSchema, { max: feedJobsLimit, message: feedJobsMessage }).describe(`Only these jobs (up to ${feedJobsLimit} ids, comma-separated).`), {
      type: 'string',
      example: '1,2',
    }),
    seller: once(AddressInputSchema, { description: "Only this seller's jobs and services (any case).", example: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc' }),
    buyer: once(AddressInputSchema, { description: "Only this buyer's jobs (any case); no service events.", example: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' }),
    serviceId: once(UintStringSchema, { description: 'Only this service and its jobs.', example: '1' }),
    types: extendApi(
      commaList(z.enum(feedRecordTypes), { max: feedRecordTypes.length, message: feedTypesMessage }).describe(
        'Only these record events (`job`, `service`, comma-separated); `head`, `reorg` and `reset` always come.',
      ),
      { type: 'string', example: 'job' },
    ),
    after: once(FeedCursorSchema, { description: 'Resume after this event id, for clients that cannot set `Last-Event-ID` (the header wins when both are given).', example: '31337-120-1a2b3c4d5e6f7a8b-3' }),
  },
  { kind: 'query parameter' },
)

export type EventsQuery = z.output<typeof EventsQuerySchema>

/** Where on the chain a record's state stands: the log that last changed it, or the indexed block (`logIndex` null) for a state no single log gives (a reorg's correction, a removal). */
export const FeedPositionSchema = z
  .object({
    blockNumber: UintStringSchema,
    logIndex: z.number().int().nonnegative().nullable(),
  })
  .describe('The chain position the state reflects.')

const ChangeSchema = z.enum(feedChanges).describe('`created`: first seen; `updated`: changed; `removed`: gone (a reorg took it away).')

export const JobFeedDataSchema = extendApi(
  z.object({
    change: ChangeSchema,
    position: FeedPositionSchema,
    jobId: UintStringSchema,
    job: JobDetailSchema.nullable().describe('What `GET /v1/jobs/:id` answers at this position; null when removed.'),
  }),
  { title: 'JobFeedData' },
)

export const ServiceFeedDataSchema = extendApi(
  z.object({
    change: ChangeSchema,
    position: FeedPositionSchema,
    serviceId: UintStringSchema,
    service: ServiceSchema.nullable().describe('What `GET /v1/services/:id` answers at this position; null when removed.'),
  }),
  { title: 'ServiceFeedData' },
)

const BlockSchema = z.object({ blockNumber: UintStringSchema, blockHash: Bytes32Schema })

export const HeadFeedDataSchema = extendApi(BlockSchema.describe('A block the indexer has applied: every change up to it was sent before.'), { title: 'HeadFeedData' })

export const ReorgFeedDataSchema = extendApi(
  z
    .object({
      ancestor: BlockSchema.describe('The last block both branches share.'),
      depth: z.number().int().min(1).describe('Blocks given up, from the last one this stream stood on down to the ancestor.'),
    })
    .describe(
      'The chain reorganised: the corrected state of every record that changed follows (`removed` for what is gone), then the new branch. Sent without an id, as are the corrections on a stream resumed from a given-up block: a client cut off among them resumes from its last id and gets them again.',
    ),
  { title: 'ReorgFeedData' },
)

export const feedResetReasons = ['cursor_too_old', 'other_chain', 'unknown_block'] as const

export type FeedResetReason = (typeof feedResetReasons)[number]

export const ResetFeedDataSchema = extendApi(
  z
    .object({
      reason: z.enum(feedResetReasons),
      message: z.string().describe('What happened, and what to do.'),
      cursor: FeedCursorSchema.describe('Read the REST API again, then resume after this id (it is also this event’s id).'),
    })
    .describe('The stream cannot replay from the id given: read the REST API again. The stream goes on live after it.'),
  { title: 'ResetFeedData' },
)

/** A frame's fields: its `event`, its `id` when the type has one (a schema, to keep its type), its JSON `data`. */
function frame<type extends FeedEventType, data extends z.ZodTypeAny>(event: type, data: data): z.ZodObject<{ event: z.ZodLiteral<type>; data: data }>
function frame<type extends FeedEventType, data extends z.ZodTypeAny, id extends z.ZodTypeAny>(
  event: type,
  data: data,
  id: id,
): z.ZodObject<{ event: z.ZodLiteral<type>; id: id; data: data }>
function frame(event: FeedEventType, data: z.ZodTypeAny, id?: z.ZodTypeAny): z.ZodTypeAny {
  return z.object({ event: z.literal(event), ...(id === undefined ? {} : { id }), data })
}

/** One Server-Sent Event of `GET /v1/events`: its `event`, `id` and JSON `data`. */
export const FeedEventSchema = extendApi(
  z.union([
    frame('job', JobFeedDataSchema, FeedCursorSchema.optional()),
    frame('service', ServiceFeedDataSchema, FeedCursorSchema.optional()),
    frame('head', HeadFeedDataSchema, FeedCursorSchema),
    frame('reorg', ReorgFeedDataSchema),
    frame('reset', ResetFeedDataSchema, FeedCursorSchema),
  ]),
  { title: 'FeedEvent', description: 'One Server-Sent Event: `event:` is the type, `id:` the cursor (absent on a reorg and its corrections), `data:` this JSON.' },
)

export type FeedEvent = z.output<typeof FeedEventSchema>
export type JobFeedData = z.output<typeof JobFeedDataSchema>
export type ServiceFeedData = z.output<typeof ServiceFeedDataSchema>
