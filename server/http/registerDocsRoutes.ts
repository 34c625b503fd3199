import type { FastifyInstance } from 'fastify'
import type { Resource, Responder } from './createResponder.ts'

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
  const page = (contentType: string, body: string): Resource<undefined> => ({
    contentType,
    version: () => docsVersion,
    build: () => ({ status: 200, body }),
  })
  const openApi = page('application/json; charset=utf-8', openApiText)
  const docs = page('text/html; charset=utf-8', docsHtml)
  app.get('/openapi.json', (request, reply) => respond(request, reply, openApi, undefined))
  app.get('/docs', (request, reply) => respond(request, reply, docs, undefined))
}
