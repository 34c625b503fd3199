import helmet, { type FastifyHelmetOptions } from '@fastify/helmet'
import type { FastifyInstance } from 'fastify'

export type RegisterPagesParameters = {
  /** The pages' headers (see buildPageHeaders). */
  headers: FastifyHelmetOptions
  /** Registers the pages' routes on the encapsulated instance it is given. */
  routes: (pages: FastifyInstance) => void
}

/**
 * Routes that serve pages to browsers, in an encapsulated instance of their own with @fastify/helmet
 * setting their security headers: helmet's hooks run for these routes only, so the JSON API's
 * routes (and their throughput) are as they were. Helmet's `onRequest` hooks run before a route's
 * own (addAnswerHooks' 304 or kept body), so every answer of these routes carries the headers.
 */
export function registerPages(app: FastifyInstance, { headers, routes }: RegisterPagesParameters): void {
  app.register(async (pages) => {
    await pages.register(helmet, headers)
    routes(pages)
  })
}
