import type { FastifyReply, FastifyRequest } from 'fastify'
import { corsHeaders } from './addCorsHeaders.ts'
import { handleError } from './handleError.ts'

/**
 * Fastify's `frameworkErrors` handler, for a URL it cannot even route (bad percent-encoding). Its
 * reply skips the instance's hooks, so the CORS headers are added here.
 */
export function handleFrameworkError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return handleError(error, request, reply.headers(corsHeaders))
}
