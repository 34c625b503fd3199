import type { FastifyReply, FastifyRequest } from 'fastify'
import { MalformedUrlError } from '../../errors/http.ts'
import { corsHeaders } from './addCorsHeaders.ts'
import { handleError } from './handleError.ts'

/**
 * Fastify's `frameworkErrors` handler, for a URL it cannot even route (bad percent-encoding). Its
 * reply skips the instance's hooks, so the CORS headers are added here.
 */
export function handleFrameworkError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const reported = isBadUrl(error) ? new MalformedUrlError({ url: request.url, cause: error }) : error
  return handleError(reported, request, reply.headers(corsHeaders))
}

/** Fastify's own message for it only says the component is invalid, not what is allowed. */
function isBadUrl(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'FST_ERR_BAD_URL'
}
