import type { FastifyInstance } from 'fastify'
import type { AnswerHooks } from './addAnswerHooks.ts'
import { buildPageHeaders } from './pages/buildPageHeaders.ts'
import { hashInlineSources } from './pages/hashInlineSources.ts'
import { registerPages } from './pages/registerPages.ts'
import { registerFixedAnswer } from './registerFixedAnswer.ts'

export const docsPaths = ['/openapi.json', '/docs'] as const

export type RegisterDocsRoutesParameters = {
  /** The committed `openapi.json`, served byte for byte. */
  openApiText: string
  /** The self-contained Redoc page built from it. */
  docsHtml: string
  answers: AnswerHooks
}

/**
 * Redoc's styled-components adds empty style elements at run time and fills them through CSSOM
 * (`insertRule`), which no policy checks; the element itself must be allowed, by the hash of nothing.
 */
const runtimeStyleElement = '<style></style>'

/**
 * `GET /openapi.json` and `GET /docs` (the API reference, readable offline), ETag and compression as
 * the API's. The page is one file with Redoc's bundle and styles inline: its policy allows those by
 * hash, read from the page when the app is built, so nothing else inline can run.
 */
export function registerDocsRoutes(app: FastifyInstance, { openApiText, docsHtml, answers }: RegisterDocsRoutesParameters): void {
  registerFixedAnswer(app, { answers, url: '/openapi.json', contentType: 'application/json; charset=utf-8', body: openApiText, strictQuery: true })
  const headers = buildPageHeaders({ allow: hashInlineSources(`${docsHtml}${runtimeStyleElement}`) })
  registerPages(app, {
    headers,
    routes: (pages) => registerFixedAnswer(pages, { answers, url: '/docs', contentType: 'text/html; charset=utf-8', body: docsHtml }),
  })
}
