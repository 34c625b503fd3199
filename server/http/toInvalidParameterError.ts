import type { FastifyRequest } from 'fastify'
import type { RequestValidationError } from '@ts-rest/fastify'
import type { ZodError } from 'zod'
import { InvalidParameterError, type ParameterLocation } from '../../errors/http.ts'

/**
 * ts-rest rejects a request whose path or query fails the contract's zod schema; this names the
 * first offending parameter, quotes what was sent and gives the schema's own message, which says
 * what is allowed.
 */
export function toInvalidParameterError(error: RequestValidationError, request: FastifyRequest): InvalidParameterError {
  const [location, zodError, values]: [ParameterLocation, ZodError | null, unknown] =
    error.pathParams !== null ? ['path', error.pathParams, request.params] : ['query', error.query, request.query]
  const issue = zodError?.issues[0]
  const parameter = String(issue?.path[0] ?? 'unknown')
  const value = (values as Record<string, string | string[] | undefined>)[parameter] ?? ''
  return new InvalidParameterError({ location, parameter, value, expected: issue?.message ?? 'Check the API reference at /docs.' })
}
