import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { AnswerHooks } from './addAnswerHooks.ts'
import { buildPageHeaders } from './pages/buildPageHeaders.ts'
import { registerPages } from './pages/registerPages.ts'
import { registerFixedAnswer } from './registerFixedAnswer.ts'

/** Swagger UI's page, where each operation can be tried against this server. */
export const swaggerUiPath = '/docs/swagger'

/** The files of swagger-ui-dist the page loads, served from the package as they are. */
const distFiles = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
} as const

/** Starts Swagger UI: a file of ours rather than an inline script, which the page's policy refuses. */
const initializerFile = 'swagger-initializer.js'

export const swaggerUiPaths = [swaggerUiPath, ...[...Object.keys(distFiles), initializerFile].map((file) => `${swaggerUiPath}/${file}`)]

const initializer = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  // The public validator is another server; the page talks to this one only.
  validatorUrl: null,
  // Not the standalone layout: its top bar loads a document from any URL typed in (which the
  // page's policy refuses) and draws a logo with an inline style element (refused too).
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
})
`

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>TEE Market indexer API: try it</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${swaggerUiPath}/swagger-ui.css">
<link rel="stylesheet" href="${swaggerUiPath}/index.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${swaggerUiPath}/swagger-ui-bundle.js"></script>
<script src="${swaggerUiPath}/${initializerFile}"></script>
</body>
</html>
`

export type RegisterSwaggerUiRoutesParameters = { answers: AnswerHooks }

/**
 * `GET /docs/swagger`: Swagger UI over `/openapi.json`, with "Try it out" on, from the
 * swagger-ui-dist package's own files (no CDN), read once when the app is built. Its policy is the
 * pages' own: scripts and styles from this server only, requests ("Try it out") to this server only.
 */
export function registerSwaggerUiRoutes(app: FastifyInstance, { answers }: RegisterSwaggerUiRoutesParameters): void {
  const directory = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
  const files = Object.entries(distFiles).map(([file, contentType]) => ({ file, contentType, body: readFileSync(join(directory, file), 'utf8') }))
  files.push({ file: initializerFile, contentType: 'text/javascript; charset=utf-8', body: initializer })
  registerPages(app, {
    headers: buildPageHeaders(),
    routes: (pages) => {
      registerFixedAnswer(pages, { answers, url: swaggerUiPath, contentType: 'text/html; charset=utf-8', body: page })
      for (const { file, contentType, body } of files) registerFixedAnswer(pages, { answers, url: `${swaggerUiPath}/${file}`, contentType, body })
    },
  })
}
