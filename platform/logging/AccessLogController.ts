import { LogController, type FastifyReply, type FastifyRequest } from 'fastify'

/**
 * Fastify's request logging, with the scheme the client used on each access-log line: behind a
 * trusted proxy that terminates TLS, `request.protocol` is the proxy's `X-Forwarded-Proto` (the
 * public scheme), while Fastify's own line names only the host and the client address.
 */
export class AccessLogController extends LogController {
  override incomingRequest(request: FastifyRequest, _reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return
    request.log.info({ req: request, protocol: request.protocol }, 'incoming request')
  }
}
