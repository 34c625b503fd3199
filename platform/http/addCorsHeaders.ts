import type { FastifyInstance } from 'fastify'

/**
 * The API is public and read-only: any origin may read every answer, errors and 404s included, and
 * a page can pace itself on a 429's `Retry-After` and RateLimit fields.
 */
export const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'etag, retry-after, ratelimit, ratelimit-policy',
} as const

/**
 * Set in `onSend`, which runs for every reply whatever produced it, except Fastify's
 * `frameworkErrors` (a malformed URL), which sets them itself (see handleFrameworkError).
 */
export function addCorsHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(corsHeaders)
    done(null, payload)
  })
}
