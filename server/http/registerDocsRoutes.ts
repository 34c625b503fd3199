import type { FastifyInstance } from 'fastify'
import type { AnswerHooks } from './addAnswerHooks.ts'
import { registerFixedAnswer } from './registerFixedAnswer.ts'

export const docsPaths = ['/openapi.json', '/docs'] as const

export type RegisterDocsRoutesParameters = {
  /** The committed `openapi.json`, served byte for byte. */
  openApiText: string
  /** The self-contained Redoc page built from it. */
  docsHtml: string
  answers: AnswerHooks
}

/** Images from this server or inline only: the reference page loads nothing from elsewhere. */
const docsImagePolicy = "img-src 'self' data:"

/** `GET /openapi.json` and `GET /docs` (the API reference, readable offline), ETag and compression as the API's. */
export function registerDocsRoutes(app: FastifyInstance, { openApiText, docsHtml, answers }: RegisterDocsRoutesParameters): void {
  registerFixedAnswer(app, { answers, url: '/openapi.json', contentType: 'application/json; charset=utf-8', body: openApiText, strictQuery: true })
  // Redoc's bundle shows a "docs by Redocly" logo from its CDN; the page stays on this server.
  registerFixedAnswer(app, {
    answers,
    url: '/docs',
    contentType: 'text/html; charset=utf-8',
    body: docsHtml,
    headers: { 'content-security-policy': docsImagePolicy },
  })
}
