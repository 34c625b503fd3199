import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'
import type { arbiterAbi } from '../chain/abi/arbiter.ts'
import type { escrowAbi } from '../chain/abi/escrow.ts'
import { describeField } from './describeField.ts'
import { JobEventSchema, type JobEventName } from './job.ts'
import { CountSchema } from './lists.ts'
import { AddressSchema, UintStringSchema } from './primitives.ts'

/** A job's events that carry what its dispute moved: the escrow's and the arbiter's, in the order a dispute emits them. */
export const disputeEventNames = [
  'JobDisputed',
  'DisputeOpened',
  'DisputeFailed',
  'JobSlashed',
  'Slashed',
] as const satisfies readonly JobEventName[]

export type DisputeEventName = (typeof disputeEventNames)[number]

type DisputeAbiEvent = Extract<(typeof escrowAbi | typeof arbiterAbi)[number], { type: 'event'; name: DisputeEventName }>
/** The arguments of the dispute events, as the ABI names them (the job id aside: the answer names its job once). */
type DisputeArgumentName = Exclude<DisputeAbiEvent['inputs'][number]['name'], 'jobId'>

const { blockNumber, transactionHash, logIndex, timestamp } = JobEventSchema.shape

// Each argument keeps its ABI name, so a reader of the chain finds it under the same name there.
const argumentFields = {
  disputer: describeField(AddressSchema, {
    description: 'Who disputed the job (and posted the dispute bond). Present on JobDisputed, DisputeOpened, DisputeFailed and Slashed.',
  }).optional(),
  bond: describeField(UintStringSchema, {
    description: "The disputer's bond, in wei, held by the arbiter until arbitration. Present on DisputeOpened only.",
    example: '10000000000000000',
  }).optional(),
  toSeller: describeField(UintStringSchema, {
    description: "The part of the disputer's bond paid to the seller when the dispute failed (the attestation still verifies), in wei. Present on DisputeFailed only.",
    example: '9000000000000000',
  }).optional(),
  slashedSeller: describeField(AddressSchema, {
    description: 'The seller whose service bond was slashed. Present on JobSlashed only.',
  }).optional(),
  bondAmount: describeField(UintStringSchema, {
    description: "The service's bond taken by the slash, in wei (the escrow's record of it). Present on JobSlashed only.",
    example: '5000000000000000000',
  }).optional(),
  sellerBondSlashed: describeField(UintStringSchema, {
    description: "The service's bond taken by the slash, in wei (the arbiter's record of it). Present on Slashed only.",
    example: '5000000000000000000',
  }).optional(),
  toDisputer: describeField(UintStringSchema, {
    description: "The slashed bond's share paid to the disputer, in wei; the disputer also gets their own bond back. Present on JobSlashed and Slashed.",
    example: '3500000000000000000',
  }).optional(),
  toTreasury: describeField(UintStringSchema, {
    description: "The treasury's share, in wei: of the disputer's bond on DisputeFailed, of the slashed bond on JobSlashed and Slashed.",
    example: '1000000000000000000',
  }).optional(),
  burned: describeField(UintStringSchema, {
    description: 'The share of the slashed bond burned (sent to the zero address), in wei. Present on JobSlashed and Slashed.',
    example: '500000000000000000',
  }).optional(),
} satisfies Record<DisputeArgumentName, z.ZodTypeAny>

export const DisputeEventSchema = extendApi(
  z.object({
    event: z.enum(disputeEventNames).describe("Name of the on-chain event: the escrow's JobDisputed and JobSlashed, the arbiter's DisputeOpened, DisputeFailed and Slashed."),
    blockNumber,
    transactionHash,
    logIndex,
    timestamp,
    ...argumentFields,
  }),
  {
    title: 'DisputeEvent',
    description: "One event of a job's dispute with its arguments: who disputed, the bond, and how arbitration split it.",
  },
)

export type DisputeEvent = z.output<typeof DisputeEventSchema>

export const JobDisputeSchema = extendApi(
  z.object({
    jobId: describeField(UintStringSchema, { description: 'The job.', example: '9' }),
    count: CountSchema,
    events: z
      .array(DisputeEventSchema)
      .describe("The job's dispute events with their arguments, oldest first; empty when the job was never disputed."),
  }),
  {
    title: 'JobDispute',
    description:
      "What a job's dispute moved, as its events say (GET /v1/jobs/{id}/dispute): the disputer and the bond (DisputeOpened), then either the failed dispute's split of that bond (DisputeFailed) or the slash of the service's bond (JobSlashed, Slashed).",
  },
)

export type JobDispute = z.output<typeof JobDisputeSchema>
