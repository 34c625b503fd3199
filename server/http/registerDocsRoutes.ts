import type { FastifyInstance } from 'fastify'

export const docsPaths = ['/openapi.json', '/docs'] as const

export type RegisterDocsRoutesParameters = {
  /** The committed `openapi.json`, served byte for byte. */
  openApiText: string
  /** The self-contained Redoc page built from it. */
  docsHtml: string
}

/** `GET /openapi.json` and `GET /docs` (the API reference, readable offline). */
export function registerDocsRoutes(app: FastifyInstance, { openApiText, docsHtml }: RegisterDocsRoutesParameters): void {
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(openApiText))
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(docsHtml))
}
