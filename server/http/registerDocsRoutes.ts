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

/** Images from this server or inline only: the reference page loads nothing from elsewhere. */
const docsImagePolicy = "img-src 'self' data:"

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
  // Redoc's bundle shows a "docs by Redocly" logo from its CDN; the page stays on this server.
  app.get('/docs', (request, reply) => respond(request, reply.header('content-security-policy', docsImagePolicy), docs, undefined))
}
