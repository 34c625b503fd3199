import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'
import { describeField } from './describeField.ts'
import { AddressSchema, Bytes32Schema, UintStringSchema } from './primitives.ts'

/** A registered service: `serviceId` plus every field of the registry's `Service` struct. */
export const ServiceSchema = extendApi(
  z.object({
    serviceId: describeField(UintStringSchema, {
      description: 'Identifier of the service (ids start at 1).',
      example: '1',
    }),
    inftTokenId: describeField(UintStringSchema, {
      description: 'Id of the agent token minted to the seller on registration.',
      example: '1',
    }),
    seller: describeField(AddressSchema, { description: 'Seller wallet.' }),
    capabilityHash: describeField(Bytes32Schema, { description: 'Capability hash the seller registered.' }),
    modelId: extendApi(z.string().describe('Identifier of the model served.'), { example: 'gpt-4o-mini' }),
    modelCommitment: describeField(Bytes32Schema, {
      description: 'keccak256(abi.encodePacked(modelId, providerAddress)).',
    }),
    providerAddress: describeField(AddressSchema, { description: 'Provider address.' }),
    signingAddress: describeField(AddressSchema, {
      description: 'Address whose signature must verify job attestations.',
    }),
    providerIdentity: extendApi(z.string().describe('Provider name.'), { example: 'openai' }),
    providerType: extendApi(z.string().describe('Provider type, e.g. "centralized".'), { example: 'centralized' }),
    targetSeparated: z.boolean().describe('The targetSeparated flag the seller registered.'),
    pricePerCall: describeField(UintStringSchema, {
      description: 'Price escrowed per call, in wei (smallest unit of the native token).',
      example: '1000000000000000',
    }),
    maxInputBytes: describeField(UintStringSchema, {
      description: 'Maximum input size in bytes accepted by the service.',
      example: '65536',
    }),
    registeredAt: describeField(UintStringSchema, {
      description: 'Registration time, unix seconds (block timestamp).',
      example: '1778219800',
    }),
    active: z.boolean().describe('Whether the service is active (accepts new jobs).'),
  }),
  { title: 'Service', description: 'A registered AI inference service, as the registry stores it.' },
)

export type Service = z.output<typeof ServiceSchema>
