import type { FastifyInstance } from 'fastify'
import { MethodNotAllowedError } from '../../errors/http.ts'

const allowedMethods = ['GET', 'HEAD', 'OPTIONS'] as const
const allowHeader = allowedMethods.join(', ')

export type RegisterReadOnlyGuardsParameters = {
  /** Fastify-style paths (`/v1/jobs/:id`) served with GET. */
  paths: readonly string[]
}

/**
 * For each read-only path: OPTIONS answers a CORS preflight with 204, every other method is a 405
 * naming the allowed ones. Both answer in `onRequest`, before any body is read, so a POST with a
 * malformed body still gets its 405.
 */
export function registerReadOnlyGuards(app: FastifyInstance, { paths }: RegisterReadOnlyGuardsParameters): void {
  const otherMethods = app.supportedMethods.filter((method) => !(allowedMethods as readonly string[]).includes(method))
  for (const url of paths) {
    app.route({
      method: 'OPTIONS',
      url,
      onRequest: async (request, reply) => {
        return reply
          .status(204)
          .headers({
            allow: allowHeader,
            'access-control-allow-methods': allowHeader,
            'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
            'access-control-max-age': '86400',
          })
          .send()
      },
      handler: unreachable,
    })
    app.route({
      method: otherMethods,
      url,
      onRequest: async (request) => {
        throw new MethodNotAllowedError({ method: request.method, path: request.url.split('?')[0] ?? url, allowed: allowedMethods })
      },
      handler: unreachable,
    })
  }
}

/** The `onRequest` hooks above always answer; Fastify still wants a handler. */
async function unreachable(): Promise<void> {}
