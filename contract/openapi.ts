import { generateOpenApi } from '@ts-rest/open-api'
import { generateSchema } from '@anatine/zod-openapi'
import { isAppRouteOtherResponse, type AppRoute } from '@ts-rest/core'
import type { OpenAPIObject, OperationObject, SchemaObject } from 'openapi3-ts'
import packageJson from '../package.json' with { type: 'json' }
import { marketContract } from './router.ts'

const responseDescriptions: Record<string, string> = {
  200: 'Success.',
  400: 'A path or query parameter is malformed, repeated or unknown; the body says which one and what is allowed.',
  404: 'Nothing has that id or hash.',
  429: 'This client address sent more requests than the per-client limit (`--rate-limit`, per minute); `Retry-After` says when to send again, `RateLimit-Policy` and `RateLimit` give the policy and its reset (draft-ietf-httpapi-ratelimit-headers).',
  503: 'The indexer is not in sync with the chain; the body is the health record with `ok: false`.',
}

const tags = [
  { name: 'health', description: 'Liveness and sync state of the indexer.' },
  { name: 'services', description: 'The registry of AI inference services.' },
  { name: 'jobs', description: 'Paid jobs and their attestations.' },
  { name: 'sellers', description: 'Everything of one seller.' },
  { name: 'buyers', description: 'The jobs of one buyer.' },
  { name: 'stats', description: 'Aggregate counters.' },
  { name: 'transactions', description: 'From a transaction hash to the jobs and services it touched.' },
  { name: 'feed', description: 'The live feed: changes pushed as they are indexed (Server-Sent Events).' },
]

/**
 * Describes each status, and gives a stream's 200 its own media type: the generator names every
 * body JSON, and leaves out a body that is not a zod schema. The stream's schema (one event) is
 * kept in `streamSchemas` under its title, for the document's components.
 */
function describeResponses(streamSchemas: Record<string, SchemaObject>) {
  return (operation: OperationObject, route: AppRoute): OperationObject => {
    for (const [status, response] of Object.entries(operation.responses)) {
      response.description = responseDescriptions[status] ?? response.description
      const declared = route.responses[Number(status)]
      if (declared === undefined || !isAppRouteOtherResponse(declared)) continue
      const schema = generateSchema(declared.body as Parameters<typeof generateSchema>[0])
      const title = schema.title ?? `${route.path} ${status}`
      streamSchemas[title] = schema
      response.content = { [declared.contentType]: { schema: { $ref: `#/components/schemas/${title}` } } }
    }
    return operation
  }
}

export type BuildOpenApiDocumentReturnType = OpenAPIObject

/** The OpenAPI 3.0 document of the REST indexer, generated from `marketContract`. */
export function buildOpenApiDocument(): BuildOpenApiDocumentReturnType {
  const streamSchemas: Record<string, SchemaObject> = {}
  const { openapi, info, servers, security, tags: documentTags, paths, components } = generateOpenApi(
    marketContract,
    {
      info: {
        title: 'TEE Market indexer API',
        version: packageJson.version,
        description:
          'Read-only REST cache of the on-chain registry of TEE-attested AI inference services and their paid jobs. The chain contracts are the source of truth. Every uint (ids, amounts in wei, timestamps in unix seconds, block numbers) is a canonical decimal string; addresses are EIP-55 checksummed; bytes are lowercase 0x hex. Errors have the body `{ "error": { "code", "message" } }`. No authentication; CORS is open to all origins.\n\nTry each operation in [Swagger UI](/docs/swagger); browse the market in the [explorer](/).',
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      // Relative: the server is the origin that serves this document, on whatever port it listens.
      servers: [{ url: '/', description: 'The indexer that serves this document.' }],
      tags,
      security: [],
    },
    { setOperationId: true, operationMapper: describeResponses(streamSchemas) },
  )
  if (components !== undefined) components.schemas = { ...components.schemas, ...streamSchemas }
  // The generator puts `paths` second; readers expect the document's metadata first.
  return { openapi, info, servers, security, tags: documentTags, paths, components }
}
