import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'
import { describeField } from './describeField.ts'
import { JobEventSchema, jobEventNames } from './job.ts'
import { CountSchema } from './lists.ts'
import { UintStringSchema } from './primitives.ts'
import { serviceEventNames } from './serviceEvent.ts'

const { blockNumber, transactionHash, logIndex, timestamp } = JobEventSchema.shape

export const TransactionEventSchema = extendApi(
  z.object({
    event: z
      .enum([...jobEventNames, ...serviceEventNames])
      .describe("Name of the on-chain event: one of a job's events (as in a job's `events`) or of a service's (as in its history)."),
    logIndex,
    jobId: describeField(UintStringSchema, {
      description: "The job the event is about. Present on a job's events only.",
      example: '7',
    }).optional(),
    serviceId: describeField(UintStringSchema, {
      description: "The service the event is about. Present on a service's registry events only.",
      example: '1',
    }).optional(),
  }),
  { title: 'TransactionEvent', description: 'One market event of a transaction, and the job or service it is about.' },
)

export type TransactionEvent = z.output<typeof TransactionEventSchema>

export const TransactionSchema = extendApi(
  z.object({
    transactionHash,
    blockNumber,
    timestamp,
    count: CountSchema,
    events: z
      .array(TransactionEventSchema)
      .describe('The market events the transaction emitted, in log order: each names its job (jobId) or its service (serviceId).'),
  }),
  {
    title: 'Transaction',
    description:
      "The market events one transaction emitted (GET /v1/transactions/{hash}), to find the jobs and services it touched. Each event's block and time are the transaction's.",
  },
)

export type Transaction = z.output<typeof TransactionSchema>
