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

export const HealthProblemSchema = z
  .object({
    code: z.string().regex(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/).describe('Machine-readable snake_case code.'),
    message: z.string().describe('What is wrong, naming the block, transaction or chain concerned.'),
  })
  .describe('A problem the indexer knows of.')

export const HealthSelfCheckSchema = z
  .object({
    lastRunAt: describeField(UintStringSchema, {
      description: 'When the last check ran, in unix seconds.',
      example: '1767225600',
    }).nullable(),
    checkedServices: countField('Services the last check compared with the chain.'),
    checkedJobs: countField('Jobs the last check compared with the chain.'),
    differences: countField('Records the last check found different from the chain (each is then repaired).'),
    unrepaired: countField('Records known to differ from the chain and not repaired yet; ok is false while any.'),
    repairs: countField('Records repaired since the indexer started.'),
  })
  .describe(
    'The continuous self-check: each poll, a few services and jobs, in turn, are read again from the chain at the ' +
      'last indexed block and compared with what is served; what differs is read again with its history and replaced.',
  )

export const HealthStalledNodeSchema = z
  .object({
    url: z.string().describe('The node, as configured (--rpc-url, --fallback-rpc-url), without credentials or API keys.'),
    methods: z.array(z.string()).describe('The JSON-RPC methods of the request it holds (a batch names each method once).'),
    waitingMs: z.number().int().min(0).describe('Since that request was sent, in ms.'),
    timedOut: z
      .boolean()
      .describe('True once the request ended at its deadline (it went to the next node, or the poll is retried); the node stays listed until it answers one in full.'),
  })
  .describe('A node holding a request whose whole answer (status, headers and body) has not come within a quarter of its deadline.')

export const HealthSchema = extendApi(
  z.object({
    ok: z
      .boolean()
      .describe(
        'True once the initial back-fill reached the chain head and the last poll succeeded within 3 poll intervals, ' +
          'while the node serves the configured chain and no served record is known to differ from the chain.',
      ),
    uptimeSec: z.number().int().min(0).describe('Seconds since the indexer started.'),
    lastIndexedBlock: describeField(UintStringSchema, {
      description: 'Last block the indexer has scanned.',
      example: '1234567',
    }),
    counters: HealthCountersSchema,
    headBlock: describeField(UintStringSchema, {
      description: 'Chain head as the last poll read it, at its start: during the initial back-fill, the block it reads up to.',
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
    problems: z
      .array(HealthProblemSchema)
      .describe(
        'Empty when nothing is wrong. "chain_id_mismatch": the node serves another chain (nothing is served until it ' +
          'serves the configured one again); otherwise why the last poll failed, e.g. "incomplete_logs" (a node ' +
          'answered part of the logs; the window is read again) or "undecodable_log" (naming the block and transaction).',
      ),
    selfCheck: HealthSelfCheckSchema,
    stalledNodes: z
      .array(HealthStalledNodeSchema)
      .describe(
        'Empty while every node answers. A node that leaves a request unanswered (a load balancer that sent half a body, ' +
          'or accepted the request and never answered) is named here while it lasts: each request has one deadline ' +
          'for headers and body, after which the call goes to the next node.',
      ),
  }),
  { title: 'Health', description: 'Health record of the indexer.' },
)

export type Health = z.output<typeof HealthSchema>
