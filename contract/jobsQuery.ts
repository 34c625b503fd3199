import { extendApi, generateSchema } from '@anatine/zod-openapi'
import { z } from 'zod'
import { jobStateNames } from './job.ts'
import { clientInput, pageQueryShape } from './paging.ts'
import { AddressInputSchema, UintStringSchema } from './primitives.ts'
import { strictParameters } from './strictParameters.ts'

export const jobsLimit = { default: 50 } as const

/**
 * A filter's single value, as the primitive checks it (its message says what is allowed); a
 * repeated one arrives as an array and is refused. Documented as the primitive is (a pipe has no
 * OpenAPI form of its own).
 */
export function once<schema extends z.ZodTypeAny>(schema: schema, { description, example }: { description: string; example: string }) {
  const { description: _, ...documented } = generateSchema(schema)
  return extendApi(z.string({ invalid_type_error: 'Give the parameter once.' }).pipe(schema).optional().describe(description), {
    ...documented,
    example,
  })
}

const statesMessage = `Expected job states: numbers from 0 to ${jobStateNames.length - 1} (${jobStateNames.map((name, state) => `${state} ${name}`).join(', ')}), repeated or comma-separated, e.g. "3" or "3,4".`

/** `state`: repeated (`state=3&state=4`) or comma-separated (`state=3,4`); parsed into the distinct states, ascending. */
const JobStatesSchema = clientInput<number | string | undefined>()(
  extendApi(
    z
      .preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(z.string(), { message: statesMessage }))
      .transform((value, context) => {
        const states = new Set<number>()
        for (const text of value.flatMap((item) => item.split(','))) {
          if (!/^[0-9]$/.test(text) || Number(text) >= jobStateNames.length) {
            context.addIssue({ code: z.ZodIssueCode.custom, message: statesMessage })
            return z.NEVER
          }
          states.add(Number(text))
        }
        return [...states].sort((a, b) => a - b)
      })
      .optional()
      .describe('Only jobs now in one of these states (0–6): repeat the parameter or separate states with commas.'),
    { type: 'array', items: { type: 'integer', minimum: 0, maximum: jobStateNames.length - 1 }, example: [3] },
  ),
)

/**
 * `GET /v1/jobs`: the filters combine with AND; `limit` and `cursor` page through what matches,
 * newest first.
 */
export const JobsQuerySchema = strictParameters(
  {
    ...pageQueryShape({ defaultLimit: jobsLimit.default }),
    buyer: once(AddressInputSchema, {
      description: 'Only jobs paid by this address (any case).',
      example: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    }),
    seller: once(AddressInputSchema, {
      description: 'Only jobs of this seller (any case).',
      example: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
    }),
    serviceId: once(UintStringSchema, {
      description: 'Only jobs of this service.',
      example: '1',
    }),
    state: JobStatesSchema,
  },
  { kind: 'query parameter' },
)

export type JobsQuery = z.output<typeof JobsQuerySchema>

/** `GET /v1/buyers/:address`: the buyer's jobs, 50 a page by default. */
export const BuyerQuerySchema = strictParameters(pageQueryShape({ defaultLimit: jobsLimit.default }), { kind: 'query parameter' })

/** Every seller with up to this many jobs gets all of them in one answer, as before paging. */
export const sellerJobsLimit = { default: 1000 } as const

/** `GET /v1/sellers/:address`: pages through the seller's jobs, 1,000 a page by default. */
export const SellerQuerySchema = strictParameters(pageQueryShape({ defaultLimit: sellerJobsLimit.default }), { kind: 'query parameter' })
