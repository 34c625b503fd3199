import { extendApi } from '@anatine/zod-openapi'
import { toHex } from 'viem'
import { z } from 'zod'
import { arbiterAbi } from '../chain/abi/arbiter.ts'
import { escrowAbi } from '../chain/abi/escrow.ts'
import { AttestationFieldsSchema } from './attestation.ts'
import { describeField } from './describeField.ts'
import { AddressSchema, Bytes32Schema, HexSchema, UintStringSchema } from './primitives.ts'

/** Names of the escrow's `JobState` enum; the index is the state number. */
export const jobStateNames = ['Pending', 'Sealed', 'Attested', 'Settled', 'Expired', 'Disputed', 'Slashed'] as const

// The examples make one consistent job in the docs: Settled, so it carries its attestation.
export const JobStateNameSchema = extendApi(z.enum(jobStateNames).describe('Name of the job state.'), { example: 'Settled' })
export type JobStateName = z.infer<typeof JobStateNameSchema>

/** The name of an escrow `JobState` number; a number outside the enum is a RangeError. */
export function toJobStateName(state: number): JobStateName {
  const name = jobStateNames[state]
  if (name === undefined) throw new RangeError(`Job state ${state} is outside the escrow's enum.`)
  return name
}

/** State number from which a job carries its attestation (Attested and every later state). */
export const attestedState = jobStateNames.indexOf('Attested')

export const JobStateSchema = extendApi(
  z
    .number()
    .int()
    .min(0)
    .max(jobStateNames.length - 1)
    .describe('State number: 0 Pending, 1 Sealed, 2 Attested, 3 Settled, 4 Expired, 5 Disputed, 6 Slashed.'),
  { example: jobStateNames.indexOf('Settled') },
)

const attestationTextExample = toHex(
  `${'ab'.repeat(32)}:${'cd'.repeat(32)}:centralized:openai:${'ef'.repeat(32)}`,
)
const signatureExample = `0x${'11'.repeat(32)}${'22'.repeat(32)}1b`

const whenAttested = 'Present only when state >= 2 (Attested or later) and the chain holds an attestation.'

/** Keys a job carries only from Attested on; below Attested they are absent. */
export const jobAttestationKeys = [
  'outputRootHash',
  'chatId',
  'attestationText',
  'attestationSignature',
  'attestation',
] as const satisfies readonly JobKey[]

export const JobSchema = extendApi(
  z.object({
    jobId: describeField(UintStringSchema, { description: 'Identifier of the job (ids start at 1).', example: '7' }),
    serviceId: describeField(UintStringSchema, { description: 'Service the job belongs to.', example: '1' }),
    buyer: describeField(AddressSchema, { description: 'Paying wallet.' }),
    seller: describeField(AddressSchema, { description: 'Seller wallet.' }),
    amount: describeField(UintStringSchema, { description: 'Escrow amount in wei.', example: '1000000000000000' }),
    protocolFee: describeField(UintStringSchema, {
      description: 'Protocol fee in wei (5 % of the amount), kept from the seller payout.',
      example: '50000000000000',
    }),
    createdAt: describeField(UintStringSchema, {
      description: 'Creation time, unix seconds (block timestamp).',
      example: '1778220000',
    }),
    timeout: describeField(UintStringSchema, {
      description: 'Expiry time, unix seconds: after it the buyer may reclaim the escrow.',
      example: '1778220300',
    }),
    state: JobStateSchema,
    stateName: JobStateNameSchema,
    inputCommitment: describeField(Bytes32Schema, { description: 'keccak256 of the encrypted input.' }),
    outputRootHash: describeField(Bytes32Schema, { description: `Output root hash. ${whenAttested}` }).optional(),
    chatId: describeField(Bytes32Schema, { description: `Chat identifier. ${whenAttested}` }).optional(),
    attestationText: describeField(HexSchema, {
      description: `The exact bytes of the attestation text, as hex (lossless). ${whenAttested}`,
      example: attestationTextExample,
    }).optional(),
    attestationSignature: describeField(HexSchema, {
      description: `Signature over the attestation text: 65 bytes r‖s‖v over its EIP-191 personal-message hash. ${whenAttested}`,
      example: signatureExample,
    }).optional(),
    attestation: AttestationFieldsSchema.nullable()
      .optional()
      .describe(
        `The attestation text parsed into its five fields, or null when the reference verifier's parseAttestationText would refuse it (at least 198 bytes; provider fields any bytes but ':', UTF-8 included). ${whenAttested}`,
      ),
  }),
  {
    title: 'Job',
    description:
      'A paid job. The attestation keys (outputRootHash, chatId, attestationText, attestationSignature, attestation) are present only from state 2 (Attested) on, when the chain holds them.',
  },
)

export type Job = z.output<typeof JobSchema>

/**
 * The keys of a job, from JobSchema's shape: the one list of a job's fields. buildJob and
 * buildJobDetail (contract/buildJob.ts) write one object literal per shape (for V8's hidden
 * classes) and check it with `satisfies Record<JobKey, unknown>` (or UnattestedJobKey), so a key
 * added to the schema is a type error there until it is written.
 */
export type JobKey = keyof typeof JobSchema.shape
export type JobAttestationKey = (typeof jobAttestationKeys)[number]
/** The keys of a job below Attested, or of one that never held an attestation. */
export type UnattestedJobKey = Exclude<JobKey, JobAttestationKey>

type AbiEventItem = { type: string; name?: string; inputs?: readonly { name?: string }[] }
/** An event of `abi` about one job: its first input is the job id. */
type JobEventOf<abi extends readonly AbiEventItem[]> = Extract<
  abi[number],
  { type: 'event'; inputs: readonly [{ name: 'jobId' }, ...unknown[]] }
>['name']

function jobEventsOf<const abi extends readonly AbiEventItem[]>(abi: abi): JobEventOf<abi>[] {
  return abi
    .filter((item) => item.type === 'event' && item.inputs?.[0]?.name === 'jobId')
    .map((item) => item.name as JobEventOf<abi>)
}

/** A job's events: the escrow's, and the arbiter's about the job's dispute. */
export type JobEventName = JobEventOf<typeof escrowAbi> | JobEventOf<typeof arbiterAbi>

/** Escrow events first, then the arbiter's (DisputeOpened, DisputeFailed, Slashed), each in ABI order. */
export const escrowJobEventNames = jobEventsOf(escrowAbi)
export const arbiterJobEventNames = jobEventsOf(arbiterAbi)
export const jobEventNames = [...escrowJobEventNames, ...arbiterJobEventNames] as [JobEventName, ...JobEventName[]]

export const JobEventNameSchema = z
  .enum(jobEventNames)
  .describe(
    "Name of the on-chain event: the escrow's job events, and the arbiter's DisputeOpened, DisputeFailed (the job stays Disputed) and Slashed.",
  )

export const JobEventSchema = extendApi(
  z.object({
    event: JobEventNameSchema,
    blockNumber: describeField(UintStringSchema, { description: 'Block that holds the event.', example: '1234567' }),
    transactionHash: describeField(Bytes32Schema, { description: 'Transaction that emitted the event.' }),
    logIndex: z.number().int().min(0).describe('Index of the log in its block.'),
    timestamp: describeField(UintStringSchema, { description: 'Block time, unix seconds.', example: '1778220000' }),
  }),
  { title: 'JobEvent', description: 'One on-chain event of a job.' },
)

export type JobEvent = z.output<typeof JobEventSchema>

/** A Settled job's history: created, then attested and settled in one transaction. */
const eventsExample = [
  { event: 'JobCreated', blockNumber: '1234560', transactionHash: `0x${'a1'.repeat(32)}`, logIndex: 0, timestamp: '1778220000' },
  { event: 'JobAttested', blockNumber: '1234567', transactionHash: `0x${'b2'.repeat(32)}`, logIndex: 0, timestamp: '1778220042' },
  { event: 'JobSettled', blockNumber: '1234567', transactionHash: `0x${'b2'.repeat(32)}`, logIndex: 1, timestamp: '1778220042' },
]

export const JobDetailSchema = extendApi(
  JobSchema.extend({
    events: extendApi(z.array(JobEventSchema).describe("The job's on-chain history, oldest first."), {
      example: eventsExample,
    }),
  }),
  { title: 'JobDetail', description: 'A job with its on-chain history (GET /v1/jobs/{id}).' },
)

export type JobDetail = z.output<typeof JobDetailSchema>
/** The keys of a job's detail, from JobDetailSchema's shape (see JobKey). */
export type JobDetailKey = keyof typeof JobDetailSchema.shape

/**
 * Adds the key-presence rule to a job schema: the attestation keys are absent below Attested and
 * come all together from Attested on. Cross-field rules make a zod effect, which MCP output schemas
 * cannot take, so the plain object schemas stay exported and the REST responses use this.
 */
export function refineJobKeys<schema extends z.ZodType<Job, z.ZodTypeDef, unknown>>(
  schema: schema,
): z.ZodEffects<schema> {
  return schema.superRefine((job, context) => {
    const present = jobAttestationKeys.filter((key) => job[key] !== undefined)
    const missing = jobAttestationKeys.filter((key) => job[key] === undefined)
    if (present.length === 0) return
    if (job.state < attestedState)
      for (const key of present)
        context.addIssue({
          code: z.ZodIssueCode.custom,
          path: [key],
          message: `Must be absent below state ${attestedState} (Attested); the job is in state ${job.state} (${job.stateName}).`,
        })
    else
      for (const key of missing)
        context.addIssue({
          code: z.ZodIssueCode.custom,
          path: [key],
          message: `Must be present with the other attestation keys (${present.join(', ')}).`,
        })
  })
}
