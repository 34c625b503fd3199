import { extendApi } from '@anatine/zod-openapi'
import { z } from 'zod'

export const ErrorBodySchema = extendApi(
  z.object({
    error: z.object({
      code: extendApi(
        z
          .string()
          .regex(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/)
          .describe('Machine-readable snake_case code.'),
        { example: 'invalid_parameter' },
      ),
      message: extendApi(z.string().describe('What was wrong and what is allowed.'), {
        example: 'Path parameter "id" must be a canonical decimal unsigned integer; got "01".',
      }),
    }),
  }),
  { title: 'ErrorBody', description: 'Body of every error response.' },
)

export type ErrorBody = z.output<typeof ErrorBodySchema>
