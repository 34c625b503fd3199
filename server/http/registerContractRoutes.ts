import { checkZodSchema, isAppRoute, validateResponse, type AppRoute, type AppRouter } from '@ts-rest/core'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ParameterLocation } from '../../errors/http.ts'
import type { ContractHandler, ContractHandlers } from './ContractHandler.ts'
import type { Resource, Responder } from './createResponder.ts'
import { toInvalidParameterError } from './toInvalidParameterError.ts'

export type RegisterContractRoutesParameters<T extends AppRouter> = {
  contract: T
  handlers: ContractHandlers<T>
  respond: Responder
  /** Also check every body against the contract's zod schema before it is sent (a mismatch is a 500). */
  validateResponses: boolean
}

/** What addResponseSchemas finds in a route's `config`. */
export type ContractRouteConfig = { contractRoute: AppRoute }

const jsonType = 'application/json; charset=utf-8'

/**
 * One Fastify route per contract route. Parameters are parsed with the contract's zod schemas (a
 * rejection is a 400 naming the parameter); the handler's `version` is asked before its `answer`,
 * so the responder can answer 304 or send a kept body without building one. The body is
 * serialized by the route's compiled response schema (see addResponseSchemas).
 */
export function registerContractRoutes<T extends AppRouter>(app: FastifyInstance, parameters: RegisterContractRoutesParameters<T>): void {
  const { contract, handlers } = parameters
  for (const key of Object.keys(contract)) {
    const route = contract[key] as AppRoute | AppRouter
    const handler = handlers[key] as ContractHandler<AppRoute> | ContractHandlers<AppRouter>
    if (isAppRoute(route)) registerRoute(app, route, handler as ContractHandler<AppRoute>, parameters)
    else registerContractRoutes(app, { ...parameters, contract: route, handlers: handler as ContractHandlers<AppRouter> })
  }
}

function registerRoute(
  app: FastifyInstance,
  appRoute: AppRoute,
  { version, answer }: ContractHandler<AppRoute>,
  { respond, validateResponses }: Pick<RegisterContractRoutesParameters<AppRouter>, 'respond' | 'validateResponses'>,
): void {
  const resource: Resource<ParsedRequest> = {
    contentType: jsonType,
    version,
    build: (input, reply) => {
      const { status, body } = answer(input)
      const checked = validateResponses ? validateResponse({ appRoute, response: { status, body } }).body : body
      // Fastify types serialize() for any serializer; the compiled JSON ones return strings.
      return { status, body: reply.code(status).serialize(checked) as string }
    },
  }
  app.route({
    method: appRoute.method,
    url: appRoute.path,
    config: { contractRoute: appRoute } satisfies ContractRouteConfig,
    handler: (request, reply) => respond(request, reply, resource, parseRequest(appRoute, request)),
  })
}

type ParsedRequest = Parameters<ContractHandler<AppRoute>['answer']>[0]

function parseRequest(appRoute: AppRoute, request: FastifyRequest): ParsedRequest {
  return {
    params: parse('path', appRoute.pathParams, request.params),
    query: parse('query', appRoute.query, request.query),
  } as ParsedRequest
}

function parse(location: ParameterLocation, schema: unknown, values: unknown): unknown {
  const result = checkZodSchema(values, schema)
  if (!result.success) throw toInvalidParameterError({ location, error: result.error, values })
  return result.data
}
