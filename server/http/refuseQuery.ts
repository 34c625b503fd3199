import type { FastifyReply, FastifyRequest } from 'fastify'
import { NoQuerySchema } from '../../contract/strictParameters.ts'
import { toInvalidParameterError } from './toInvalidParameterError.ts'

/**
 * `onRequest` hook of a JSON route outside the contract that takes no query (`/openapi.json`,
 * `/readyz`): a parameter is refused as the contract's routes refuse one, before any 304.
 * Pages and their assets (the API reference, Swagger UI, the explorer) accept the query strings
 * browsers, link trackers and cache busters add.
 */
export async function refuseQuery(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const parsed = NoQuerySchema.safeParse(request.query)
  if (!parsed.success) throw toInvalidParameterError({ location: 'query', error: parsed.error, values: request.query })
}
