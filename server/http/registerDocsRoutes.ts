import type { FastifyInstance } from 'fastify'
import type { AnswerHooks } from './addAnswerHooks.ts'

export const docsPaths = ['/openapi.json', '/docs'] as const

export type RegisterDocsRoutesParameters = {
  /** The committed `openapi.json`, served byte for byte. */
  openApiText: string
  /** The self-contained Redoc page built from it. */
  docsHtml: string
  answers: AnswerHooks
}

/** Neither page changes while the app runs: one version for their whole life. */
const docsVersion = 0

/** `GET /openapi.json` and `GET /docs` (the API reference, readable offline), ETag and compression as the API's. */
export function registerDocsRoutes(app: FastifyInstance, { openApiText, docsHtml, answers }: RegisterDocsRoutesParameters): void {
  const page = (url: string, contentType: string, body: string): void => {
    app.get(url, { onRequest: answers.onRequest({ contentType, version: () => docsVersion }) }, (_request, reply) => {
      reply.type(contentType).send(body)
    })
  }
  page('/openapi.json', 'application/json; charset=utf-8', openApiText)
  page('/docs', 'text/html; charset=utf-8', docsHtml)
}
