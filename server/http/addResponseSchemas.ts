import type { AppRoute } from '@ts-rest/core'
import type { FastifyInstance } from 'fastify'
import type { BuildOpenApiDocumentReturnType as OpenApiDocument } from '../../contract/openapi.ts'
import { OpenApiOperationMissingError } from '../../errors/http.ts'

/** `$id` under which the document's `components` are shared with every route's serializer. */
const componentsId = 'openapi'

export type AddResponseSchemasParameters = {
  /** The served OpenAPI document, generated from `marketContract`. */
  document: OpenApiDocument
}

/**
 * Gives every contract route the JSON Schemas of its responses, taken from the OpenAPI document
 * generated from the same zod schemas, and Fastify compiles them into fast-json-stringify
 * serializers (which also drop any key the contract does not declare).
 * The document's `#/components/...` references resolve against a shared schema holding them.
 * Must run before the ts-rest plugin registers its routes (they carry `config.tsRestRoute`).
 */
export function addResponseSchemas(app: FastifyInstance, { document }: AddResponseSchemasParameters): void {
  app.addSchema({ $id: componentsId, components: skipEscapingPlainStrings(document.components) })
  app.addHook('onRoute', (route) => {
    const appRoute = (route.config as { tsRestRoute?: AppRoute } | undefined)?.tsRestRoute
    if (appRoute === undefined) return
    const path = appRoute.path.replace(/:(\w+)/g, '{$1}')
    const method = appRoute.method.toLowerCase()
    const operation = document.paths[path]?.[method]
    if (operation === undefined) throw new OpenApiOperationMissingError({ method: appRoute.method, path })
    const response: Record<string, unknown> = {}
    for (const [status, { content }] of Object.entries<{ content?: Record<string, { schema?: unknown }> }>(operation.responses)) {
      const schema = content?.['application/json']?.schema
      if (schema !== undefined) response[status] = referToComponents(schema)
    }
    route.schema = { ...route.schema, response }
  })
}

/** Rewrites `#/components/...` to `openapi#/components/...`, the shared schema's address. */
function referToComponents(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(referToComponents)
  if (typeof schema !== 'object' || schema === null) return schema
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${componentsId}${value}` : referToComponents(value),
    ]),
  )
}

/**
 * Marks strings whose pattern admits only ASCII letters, digits and `_` (hex, addresses, decimal
 * amounts) with fast-json-stringify's `unsafe` format, which writes them without the escape scan:
 * nothing in them needs escaping, and on list answers that scan was ~15 % of the CPU per request
 * (npm run bench). Free-text strings keep their escaping.
 */
function skipEscapingPlainStrings(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(skipEscapingPlainStrings)
  if (typeof schema !== 'object' || schema === null) return schema
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, skipEscapingPlainStrings(value)]))
  const plain = copy.type === 'string' && copy.format === undefined && typeof copy.pattern === 'string' && admitsOnlyWordCharacters(copy.pattern)
  return plain ? { ...copy, format: 'unsafe' } : copy
}

/** An anchored pattern of literal word characters and classes of the ranges 0-9, a-z, A-Z (or parts of them). */
function admitsOnlyWordCharacters(pattern: string): boolean {
  const withoutClasses = pattern.replace(/\[((?:[0-9]-[0-9]|[a-z]-[a-z]|[A-Z]-[A-Z]|\w)+)\]/g, '')
  return /^\^[\w()?:*+{},|]*\$$/.test(withoutClasses)
}
