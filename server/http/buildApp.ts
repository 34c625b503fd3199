import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { BuildOpenApiDocumentReturnType as OpenApiDocument } from '../../contract/openapi.ts'
import { marketContract } from '../../contract/router.ts'
import { RouteNotFoundError } from '../../errors/http.ts'
import type { Store } from '../store/createStore.ts'
import { addCorsHeaders } from './addCorsHeaders.ts'
import { addResponseSchemas } from './addResponseSchemas.ts'
import { createMarketHandlers } from './createMarketHandlers.ts'
import { createResponder } from './createResponder.ts'
import { handleError } from './handleError.ts'
import { handleFrameworkError } from './handleFrameworkError.ts'
import { listContractPaths } from './listContractPaths.ts'
import { registerContractRoutes } from './registerContractRoutes.ts'
import { registerDocsRoutes, docsPaths } from './registerDocsRoutes.ts'
import { registerReadOnlyGuards } from './registerReadOnlyGuards.ts'
import { registerSwaggerUiRoutes, swaggerUiPaths } from './registerSwaggerUiRoutes.ts'
import { explorerPaths, registerExplorerRoutes, type RegisterExplorerRoutesParameters } from '../explorer/registerExplorerRoutes.ts'

/**
 * `production` trusts the compiled serializers; `development` also checks every response body
 * against the contract's zod schema, so a reader bug surfaces as a 500.
 */
export type AppMode = 'production' | 'development'

export type BuildAppParameters = {
  /** The indexer's store; every handler reads it through the readers. */
  store: Store
  mode: AppMode
  /** The committed `openapi.json`: served as is, and the source of the response serializers. */
  openApiText: string
  /** The Redoc page served at `/docs` (see buildDocsHtml). */
  docsHtml: string
  logger?: FastifyServerOptions['logger']
  /** The web explorer at `/` and its deep links; left out, those paths are 404s. */
  explorer?: Omit<RegisterExplorerRoutesParameters, 'respond'> | undefined
}

export type BuildAppReturnType = FastifyInstance

/**
 * Big enough for any path Node's HTTP parser lets through, so an over-long id reaches the contract
 * schema and gets a 400 that says why, rather than Fastify's bare 414.
 */
const maxParamLength = 16_384

/** The REST indexer as a Fastify instance, not yet listening (only server/main.ts listens). */
export function buildApp({ store, mode, openApiText, docsHtml, logger = false, explorer }: BuildAppParameters): BuildAppReturnType {
  const app = Fastify({
    logger,
    logController: new LogController({ disableRequestLogging: mode === 'production' }),
    routerOptions: { maxParamLength },
    frameworkErrors: handleFrameworkError,
  })
  const paths = [...listContractPaths(marketContract), ...docsPaths, ...swaggerUiPaths, ...(explorer ? explorerPaths : [])]
  const knownPaths = paths.map((path) => path.replace(/:(\w+)/g, '{$1}'))

  app.setErrorHandler(handleError)
  app.setNotFoundHandler(async (request) => {
    throw new RouteNotFoundError({ path: request.url.split('?')[0] ?? request.url, knownPaths })
  })
  addCorsHeaders(app)
  addResponseSchemas(app, { document: JSON.parse(openApiText) as OpenApiDocument })
  const respond = createResponder()
  registerContractRoutes(app, {
    contract: marketContract,
    handlers: createMarketHandlers({ store }),
    respond,
    validateResponses: mode === 'development',
  })
  registerDocsRoutes(app, { openApiText, docsHtml, respond })
  registerSwaggerUiRoutes(app, { respond })
  if (explorer) registerExplorerRoutes(app, { ...explorer, respond })
  registerReadOnlyGuards(app, { paths })
  return app
}
