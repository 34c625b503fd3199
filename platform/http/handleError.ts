import type { FastifyReply, FastifyRequest } from 'fastify'
import { toErrorReply } from './toErrorReply.ts'

/**
 * Fastify error handler: every failure leaves as an `ErrorBody`, without the ETag a route may
 * have set before it failed (the tag names the answer that was not sent).
 * Only server faults are logged; client mistakes are the client's business.
 */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, headers, body } = toErrorReply(error)
  if (status >= 500) request.log.error({ err: error }, 'request failed')
  return reply.removeHeader('etag').status(status).headers(headers).send(body)
}
