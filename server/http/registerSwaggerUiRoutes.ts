import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { AnswerHooks } from './addAnswerHooks.ts'
import { registerFixedAnswer } from './registerFixedAnswer.ts'

/** Swagger UI's page, where each operation can be tried against this server. */
export const swaggerUiPath = '/docs/swagger'

/** The files of swagger-ui-dist the page loads, served from the package as they are. */
const distFiles = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
} as const

export const swaggerUiPaths = [swaggerUiPath, ...Object.keys(distFiles).map((file) => `${swaggerUiPath}/${file}`)]

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
<script src="${swaggerUiPath}/swagger-ui-standalone-preset.js"></script>
<script>
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  // The public validator is another server; the page talks to this one only.
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
})
</script>
</body>
</html>
`

export type RegisterSwaggerUiRoutesParameters = { answers: AnswerHooks }

/**
 * `GET /docs/swagger`: Swagger UI over `/openapi.json`, with "Try it out" on, from the
 * swagger-ui-dist package's own files (no CDN), read once when the app is built.
 */
export function registerSwaggerUiRoutes(app: FastifyInstance, { answers }: RegisterSwaggerUiRoutesParameters): void {
  const directory = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
  registerFixedAnswer(app, { answers, url: swaggerUiPath, contentType: 'text/html; charset=utf-8', body: page })
  for (const [file, contentType] of Object.entries(distFiles)) {
    const body = readFileSync(join(directory, file), 'utf8')
    registerFixedAnswer(app, { answers, url: `${swaggerUiPath}/${file}`, contentType, body })
  }
}
