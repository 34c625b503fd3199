import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'

export const pageLimit = { min: 1, max: 1000 } as const

/**
 * A query parameter as it arrives (text, or an array when repeated), typed with what a client
 * passes: ts-rest's client writes each value with `String()`, so a number goes out as its digits.
 */
export function clientInput<input>() {
  return <schema extends z.ZodTypeAny>(schema: schema) => schema as unknown as z.ZodType<z.output<schema>, z.ZodTypeDef, input>
}

/**
 * `limit` as it arrives in the query string: absent → `defaultLimit`; one canonical decimal
 * integer within range → that number; anything else (a repeated parameter arrives as an array) → invalid.
 */
export function pageLimitSchema({ defaultLimit, what }: { defaultLimit: number; what: string }) {
  const message = `Expected an integer from ${pageLimit.min} to ${pageLimit.max}, written in plain digits.`
  return clientInput<number | undefined>()(
    extendApi(
      z
        .string({ invalid_type_error: `${message} Give the parameter once.` })
        .regex(/^[1-9][0-9]*$/, { message })
        // Not `.transform(Number)`: every zod transform allocates a bound function and a getter object
        // per parse (several µs of every GET /v1/jobs in npm run bench); a pipe into a coercing number does not.
        .pipe(z.coerce.number().max(pageLimit.max, { message }))
        .default(String(defaultLimit))
        .describe(`How many ${what} to return, newest first: an integer from ${pageLimit.min} to ${pageLimit.max} (default ${defaultLimit}).`),
      { type: 'integer', minimum: pageLimit.min, maximum: pageLimit.max, default: defaultLimit, example: 20 },
    ),
  )
}

const cursorMessage = 'Expected the nextCursor of an earlier answer of this same path and filters, as it was given.'

/** `cursor`: where a page continues. Its content is the server's; only its alphabet is checked here. */
export const CursorSchema = extendApi(
  z
    .string({ invalid_type_error: 'Give the parameter once.' })
    .regex(/^[A-Za-z0-9_-]{1,200}$/, { message: cursorMessage })
    .optional()
    .describe(
      'Continues a walk newest first: the `nextCursor` of the previous page, with the same path and filters. ' +
        'A cursor stays valid while new jobs arrive: no job comes twice, none is skipped.',
    ),
  { example: 'MTIzOjBhMWIyYzNkNGU1ZjYwNzE' },
)

/** `nextCursor` of a page: where the next one starts, or null on the last page. */
export const NextCursorSchema = extendApi(
  z
    .string()
    .nullable()
    .describe('Pass it as `cursor` to get the next page, newest first; null on the last page. Opaque: do not build or change it.'),
  { example: 'MTIzOjBhMWIyYzNkNGU1ZjYwNzE' },
)

/** The paging parameters of a list of jobs. */
export function pageQueryShape({ defaultLimit }: { defaultLimit: number }) {
  return { limit: pageLimitSchema({ defaultLimit, what: 'jobs' }), cursor: CursorSchema }
}
