import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'

export const ErrorBodySchema = extendApi(
  z.object({
    error: z.object({
      code: extendApi(
        z
          .string()
          .regex(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/)
          .describe(
            'Machine-readable snake_case code. Data paths answer 503 with "chain_id_mismatch" while the indexer\'s node ' +
              'serves another chain than the configured one: nothing is served until it serves that chain again.',
          ),
        { example: 'invalid_parameter' },
      ),
      message: extendApi(z.string().describe('What was wrong and what is allowed.'), {
        example:
          'The path parameter "id" is invalid: got "01". Expected a canonical decimal unsigned integer: digits only, no sign, no leading zeros.',
      }),
    }),
  }),
  { title: 'ErrorBody', description: 'Body of every error response.' },
)

export type ErrorBody = z.output<typeof ErrorBodySchema>
