import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'
import { describeField } from './describeField.ts'
import { JobEventSchema } from './job.ts'
import { CountSchema } from './lists.ts'
import { AddressSchema, UintStringSchema } from './primitives.ts'

export const serviceEventNames = ['ServiceRegistered', 'ServiceUpdated', 'SigningAddressRotated', 'ServiceDelisted'] as const

export const ServiceEventNameSchema = z.enum(serviceEventNames).describe('Name of the on-chain registry event.')
export type ServiceEventName = z.infer<typeof ServiceEventNameSchema>

const { blockNumber, transactionHash, logIndex, timestamp } = JobEventSchema.shape

export const ServiceEventSchema = extendApi(
  z.object({
    event: ServiceEventNameSchema,
    blockNumber,
    transactionHash,
    logIndex,
    timestamp,
    signingAddress: describeField(AddressSchema, {
      description:
        'The signing key in force from this event on. Present on ServiceRegistered and SigningAddressRotated (its `newKey`).',
    }).optional(),
    previousSigningAddress: describeField(AddressSchema, {
      description: 'The signing key this rotation replaced (`oldKey`). Present on SigningAddressRotated only.',
    }).optional(),
    pricePerCall: describeField(UintStringSchema, {
      description: 'The price per call set by this update, in wei. Present on ServiceUpdated only.',
      example: '1000000000000000',
    }).optional(),
    active: z.boolean().describe('Whether the update left the service active. Present on ServiceUpdated only.').optional(),
  }),
  {
    title: 'ServiceEvent',
    description: 'One on-chain registry event of a service, with what it changed.',
  },
)

export type ServiceEvent = z.output<typeof ServiceEventSchema>

export const ServiceEventListSchema = extendApi(
  z.object({
    count: CountSchema,
    events: z
      .array(ServiceEventSchema)
      .describe("The service's registry events, oldest first: its registration, price and status updates, key rotations."),
  }),
  { title: 'ServiceEventList', description: "A service's on-chain history (GET /v1/services/{id}/events)." },
)

export type ServiceEventList = z.output<typeof ServiceEventListSchema>
