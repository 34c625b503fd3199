import type { RequestValidationError } from '@ts-rest/fastify'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ZodError } from 'zod'
import type { ParameterLocation } from '../../errors/http.ts'
import { toInvalidParameterError } from './toInvalidParameterError.ts'

/**
 * ts-rest's `requestValidationErrorHandler`: the first part of the request the contract rejects
 * (path, query, headers, then body) becomes an InvalidParameterError. It is sent as an error, so
 * it goes on to the app's error handler, the one place errors become answers (see toErrorReply).
 */
export function handleRequestValidationError(error: RequestValidationError, request: FastifyRequest, reply: FastifyReply): void {
  const parts: [ParameterLocation, ZodError | null, unknown][] = [
    ['path', error.pathParams, request.params],
    ['query', error.query, request.query],
    ['header', error.headers, request.headers],
    ['body', error.body, request.body],
  ]
  const [location, zodError, values] = parts.find(([, rejected]) => rejected !== null) ?? parts[3]!
  reply.send(zodError === null ? error : toInvalidParameterError({ location, error: zodError, values }))
}
