import type { FastifyInstance } from 'fastify'
import type { Responder } from './createResponder.ts'

export const docsPaths = ['/openapi.json', '/docs'] as const

export type RegisterDocsRoutesParameters = {
  /** The committed `openapi.json`, served byte for byte. */
  openApiText: string
  /** The self-contained Redoc page built from it. */
  docsHtml: string
  respond: Responder
}

/** Neither page changes while the app runs: one version for their whole life. */
const docsVersion = 0

/** `GET /openapi.json` and `GET /docs` (the API reference, readable offline). */
export function registerDocsRoutes(app: FastifyInstance, { openApiText, docsHtml, respond }: RegisterDocsRoutesParameters): void {
  const page = (contentType: string, body: string) => ({ version: docsVersion, contentType, build: () => ({ status: 200, body }) })
  app.get('/openapi.json', (request, reply) => respond(request, reply, page('application/json; charset=utf-8', openApiText)))
  app.get('/docs', (request, reply) => respond(request, reply, page('text/html; charset=utf-8', docsHtml)))
}
