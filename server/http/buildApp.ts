import { initServer } from '@ts-rest/fastify'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { BuildOpenApiDocumentReturnType as OpenApiDocument } from '../../contract/openapi.ts'
import { marketContract } from '../../contract/router.ts'
import { RouteNotFoundError } from '../../errors/http.ts'
import type { Logger } from '../../platform/logging/createLogger.ts'
import type { StoreReader } from '../store/StoreReader.ts'
import { addAnswerHooks } from './addAnswerHooks.ts'
import { addCorsHeaders } from '../../platform/http/addCorsHeaders.ts'
import { addResponseSchemas } from './addResponseSchemas.ts'
import { answerClientError } from '../../platform/http/answerClientError.ts'
import { createMarketRouter } from './createMarketRouter.ts'
import { handleError } from '../../platform/http/handleError.ts'
import { handleFrameworkError } from '../../platform/http/handleFrameworkError.ts'
import { handleRequestValidationError } from './handleRequestValidationError.ts'
import { toFastifyServing, type ServingOptions } from '../../platform/serving/toFastifyServing.ts'
import { addRateLimit, type RateLimitSettings } from '../../platform/http/addRateLimit.ts'
import { hardenServer, type ServerLimits } from '../../platform/http/hardenServer.ts'
import { listContractPaths } from './listContractPaths.ts'
import { registerDocsRoutes, docsPaths } from './registerDocsRoutes.ts'
import { registerReadOnlyGuards } from './registerReadOnlyGuards.ts'
import { listOperatorPaths, readinessPath, registerOperatorRoutes } from './registerOperatorRoutes.ts'
import { metricsPath } from '../../platform/metrics/serveMetrics.ts'
import type { OperatorMetrics } from '../../platform/metrics/OperatorMetrics.ts'
import { registerSwaggerUiRoutes, swaggerUiPaths } from './registerSwaggerUiRoutes.ts'
import { explorerPaths, registerExplorerRoutes, type RegisterExplorerRoutesParameters } from '../explorer/registerExplorerRoutes.ts'
import { AccessLogController } from '../../platform/logging/AccessLogController.ts'
import { registerEventStream, type RegisterEventStreamParameters } from './registerEventStream.ts'

/**
 * `production` trusts the compiled serializers; `development` also checks every response body
 * against the contract's zod schema, so a reader bug surfaces as a 500.
 */
export type AppMode = 'production' | 'development'

export type BuildAppParameters = {
  /** The indexer's store; every handler reads it through the readers. */
  store: StoreReader
  mode: AppMode
  /** The committed `openapi.json`: served as is, and the source of the response serializers. */
  openApiText: string
  /** The Redoc page served at `/docs` (see buildDocsHtml). */
  docsHtml: string
  /** The process's logger (see createLogger); `false` logs nothing. */
  logger?: Logger | false
  /** Timeouts and connection caps (see hardenServer); the defaults unless given. */
  limits?: Partial<ServerLimits> | undefined
  /** Requests per client (see addRateLimit); no limit unless given: the entry point passes `--rate-limit`. */
  rateLimit?: RateLimitSettings | undefined
  /** Request metrics and `/metrics` (see registerOperatorRoutes); none unless given. */
  metrics?: OperatorMetrics | undefined
  /** One info line per request (Fastify's request logging); off unless asked for, as it costs throughput. */
  accessLog?: boolean | undefined
  /** The web explorer at `/` and its deep links; left out, those paths are 404s. */
  explorer?: Omit<RegisterExplorerRoutesParameters, 'answers'> | undefined
  /** HTTPS and the trusted proxies (see readServingOptions); plain HTTP, trusting no proxy, unless given. */
  serving?: ServingOptions | undefined
  /** The live feed at `/v1/events` (see registerEventStream); left out, that path is a 404. */
  feed?: Omit<RegisterEventStreamParameters, 'store'> | undefined
}

export type BuildAppReturnType = FastifyInstance

/**
 * Big enough for any path Node's HTTP parser lets through, so an over-long id reaches the contract
 * schema and gets a 400 that says why, rather than Fastify's bare 414.
 */
const maxParamLength = 16_384

const s = initServer()

/** What load balancers and Prometheus probe: outside the request limit (see addRateLimit). */
const probePaths = [marketContract.health.getHealth.path, readinessPath, metricsPath]

/**
 * The REST indexer as a Fastify instance, not yet listening (only server/main.ts listens). The
 * contract is mounted by `@ts-rest/fastify` as an encapsulated plugin; what every answer shares
 * (CORS, ETags and kept bodies, compression, compiled response schemas, error shapes, 405 guards)
 * are hooks and handlers of the app around it, one call per concern.
 */
export function buildApp({ store, mode, openApiText, docsHtml, logger = false, limits, rateLimit, metrics, accessLog = mode === 'development', explorer, serving, feed }: BuildAppParameters): BuildAppReturnType {
  const app = Fastify({
    ...toFastifyServing(serving),
    ...(logger === false ? { logger: false } : { loggerInstance: logger as FastifyBaseLogger }),
    logController: new AccessLogController({ disableRequestLogging: !accessLog }),
    routerOptions: { maxParamLength },
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: answerClientError,
  })
  const paths = [...listContractPaths(marketContract), ...docsPaths, ...swaggerUiPaths, ...(explorer ? explorerPaths : []), ...listOperatorPaths({ metrics })]
  const knownPaths = paths.map((path) => path.replace(/:(\w+)/g, '{$1}'))

  hardenServer(app, { methods: ['GET', 'HEAD', 'OPTIONS'], limits, trustProxy: serving?.trustProxy })
  if (rateLimit !== undefined) addRateLimit(app, { ...rateLimit, exemptPaths: probePaths })
  app.setErrorHandler(handleError)
  app.setNotFoundHandler(async (request) => {
    throw new RouteNotFoundError({ path: request.url.split('?')[0] ?? request.url, knownPaths })
  })
  addCorsHeaders(app)
  addResponseSchemas(app, { document: JSON.parse(openApiText) as OpenApiDocument })
  const answers = addAnswerHooks(app)
  app.register(s.plugin(createMarketRouter({ store, answers })), {
    responseValidation: mode === 'development',
    requestValidationErrorHandler: handleRequestValidationError,
  })
  if (feed) registerEventStream(app, { ...feed, store })
  registerDocsRoutes(app, { openApiText, docsHtml, answers })
  registerSwaggerUiRoutes(app, { answers })
  if (explorer) registerExplorerRoutes(app, { ...explorer, answers })
  registerOperatorRoutes(app, { store, metrics })
  registerReadOnlyGuards(app, { paths })
  return app
}
