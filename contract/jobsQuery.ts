import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'

export const jobsLimit = { default: 50, min: 1, max: 1000 } as const

const limitMessage = `Expected an integer from ${jobsLimit.min} to ${jobsLimit.max}, written in plain digits.`

/**
 * `limit` as it arrives in the query string: absent → the default; one canonical decimal integer
 * within range → that number; anything else (a repeated parameter arrives as an array) → invalid.
 */
export const JobsLimitSchema = extendApi(
  z
    .string({ invalid_type_error: `${limitMessage} Give the parameter once.` })
    .regex(/^[1-9][0-9]*$/, { message: limitMessage })
    // Not `.transform(Number)`: every zod transform allocates a bound function and a getter object
    // per parse (several µs of every GET /v1/jobs in npm run bench); a pipe into a coercing number does not.
    .pipe(z.coerce.number().max(jobsLimit.max, { message: limitMessage }))
    .default(String(jobsLimit.default))
    .describe(`How many jobs to return, newest first: an integer from ${jobsLimit.min} to ${jobsLimit.max}.`),
  { type: 'integer', minimum: jobsLimit.min, maximum: jobsLimit.max, default: jobsLimit.default, example: 20 },
)

export const JobsQuerySchema = z.object({ limit: JobsLimitSchema })

export type JobsQuery = z.output<typeof JobsQuerySchema>
