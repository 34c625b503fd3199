import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'
import { describeField } from './describeField.ts'
import { UintStringSchema } from './primitives.ts'

const countField = (description: string) => z.number().int().min(0).describe(description)

export const HealthCountersSchema = z
  .object({
    services: countField('Registered services, active or not.'),
    jobs: countField('Every job.'),
    settledJobs: countField('Jobs that emitted JobSettled.'),
    expiredJobs: countField('Jobs that emitted JobExpired.'),
    slashedJobs: countField('Jobs that emitted JobSlashed.'),
    totalSettledWei: describeField(UintStringSchema, {
      description: 'Sum of paidToSeller + protocolFee over JobSettled events, in wei.',
      example: '5000000000000000',
    }),
  })
  .describe('Counters derived from events, held in memory.')

export const HealthSchema = extendApi(
  z.object({
    ok: z
      .boolean()
      .describe(
        'True once the initial back-fill reached the chain head and the last poll succeeded within 3 poll intervals.',
      ),
    uptimeSec: z.number().int().min(0).describe('Seconds since the indexer started.'),
    lastIndexedBlock: describeField(UintStringSchema, {
      description: 'Last block the indexer has scanned.',
      example: '1234567',
    }),
    counters: HealthCountersSchema,
    headBlock: describeField(UintStringSchema, {
      description: 'Chain head at the last successful poll.',
      example: '1234567',
    }),
    lagBlocks: z.number().int().min(0).describe('headBlock minus lastIndexedBlock.'),
    syncing: z.boolean().describe('True while the indexer is back-filling towards the head.'),
    chainId: z.number().int().min(1).describe('Chain the indexer reads.'),
    network: z.string().describe('Configured network name, e.g. "devnet" or "0g-mainnet".'),
    newHeads: z
      .enum(['off', 'connecting', 'subscribed'])
      .describe(
        'Following new heads over WebSocket (eth_subscribe): "subscribed" when each new head starts a poll at once; ' +
          '"connecting" when a WebSocket URL is configured but the subscription is not up (it is retried with backoff ' +
          'while the interval poll goes on); "off" when none is configured (the interval poll alone).',
      ),
  }),
  { title: 'Health', description: 'Health record of the indexer.' },
)

export type Health = z.output<typeof HealthSchema>
