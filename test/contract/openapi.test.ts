import { readFile } from 'node:fs/promises'
import type { SchemaObject } from 'openapi3-ts'
import { expect, test } from 'vitest'
import { JobDetailSchema, attestedState, jobStateNames, refineJobKeys } from '../../contract/job.ts'
import { buildOpenApiDocument } from '../../contract/openapi.ts'
import { ServiceSchema } from '../../contract/service.ts'

const document = buildOpenApiDocument()

test('default: the committed openapi.json is what the contract generates (run `npm run openapi`)', async () => {
  const committed = await readFile(new URL('../../openapi.json', import.meta.url), 'utf8')
  expect(committed).toBe(`${JSON.stringify(document, null, 2)}\n`)
})

test('the generator emits the zod schemas, not empty ones', () => {
  const service = document.components?.schemas?.Service as SchemaObject | undefined
  expect(Object.keys(service?.properties ?? {})).toEqual(Object.keys(ServiceSchema.shape))
  expect(service?.required).toEqual(Object.keys(ServiceSchema.shape))
  expect(service?.properties?.pricePerCall).toMatchObject({
    type: 'string',
    pattern: '^(0|[1-9][0-9]*)$',
    maxLength: 78,
  })
})

test('every operation has an id, a tag and responses referring to named schemas: JSON, and the live feed\'s events', () => {
  const operations = Object.values(document.paths).map((path) => path.get)
  expect(operations.map((operation) => operation.operationId)).toEqual([
    'getHealth',
    'listServices',
    'getService',
    'getServiceEvents',
    'listTeeVerdicts',
    'getTeeVerdict',
    'getTeeEvidence',
    'listJobs',
    'getJob',
    'getJobDispute',
    'getSeller',
    'getBuyer',
    'getStats',
    'getTransaction',
    'streamEvents',
  ])
  for (const operation of operations) {
    expect(operation.tags).toHaveLength(1)
    for (const [status, response] of Object.entries<{ content: Record<string, { schema: { $ref?: string } }> }>(operation.responses)) {
      const mediaType = operation.operationId === 'streamEvents' && status === '200' ? 'text/event-stream' : 'application/json'
      expect(Object.keys(response.content)).toEqual([mediaType])
      expect(response.content[mediaType]?.schema.$ref).toMatch(/^#\/components\/schemas\/\w+$/)
    }
  }
  expect(document.paths['/v1/events'].get.responses['200'].content['text/event-stream'].schema.$ref).toBe('#/components/schemas/FeedEvent')
})

test('limit is documented with its range and default, the filters and the cursor beside it', () => {
  const parameters = document.paths['/v1/jobs'].get.parameters as { name: string; in: string; schema: unknown }[]
  expect(parameters.map(({ name }) => name)).toEqual(['limit', 'cursor', 'buyer', 'seller', 'serviceId', 'state'])
  expect(parameters[0]).toEqual({
    name: 'limit',
    in: 'query',
    description: 'How many jobs to return, newest first: an integer from 1 to 1000 (default 50).',
    schema: { type: 'integer', minimum: 1, maximum: 1000, default: 50, example: 20 },
  })
  expect(parameters.find(({ name }) => name === 'state')?.schema).toEqual({
    type: 'array',
    items: { type: 'integer', minimum: 0, maximum: 6 },
    example: [3],
  })
  expect(parameters.find(({ name }) => name === 'buyer')?.schema).toMatchObject({ type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' })
})

test('the seller and buyer jobs page with their own default limit', () => {
  const limitOf = (path: string) =>
    (document.paths[path].get.parameters as { name: string; schema: { default?: number } }[]).find(({ name }) => name === 'limit')?.schema.default
  expect(limitOf('/v1/sellers/{address}')).toBe(1000)
  expect(limitOf('/v1/buyers/{address}')).toBe(50)
})

test('the getJob example, put together from the field examples, is one consistent job', () => {
  const properties = (document.components?.schemas?.JobDetail as { properties: Record<string, { example?: unknown }> }).properties
  const example = Object.fromEntries(Object.entries(properties).map(([key, schema]) => [key, schema.example]))
  const job = refineJobKeys(JobDetailSchema).parse(example)
  expect(job.stateName).toBe(jobStateNames[job.state])
  expect(job.state).toBeGreaterThanOrEqual(attestedState)
  expect(job.events.map(({ event }) => event)).toEqual(['JobCreated', 'JobAttested', 'JobSettled'])
  // The parsed fields are those of the text, decoded here by hand.
  const [contentHash, usageHash, providerType, providerIdentity, tlsCertFingerprint] = Buffer.from(job.attestationText!.slice(2), 'hex').toString('ascii').split(':')
  expect(job.attestation).toEqual({ contentHash, usageHash, providerType, providerIdentity, tlsCertFingerprint })
})
