import { extendApi, type OpenApiZodAny } from '@anatine/zod-openapi'

export type DescribeFieldParameters = {
  description: string
  /** Replaces the primitive's generic example where a field has a more telling one. */
  example?: string | undefined
}

/**
 * `.describe()` returns a fresh schema without the OpenAPI metadata (examples) the primitive
 * carries, so a field documented with plain `.describe()` would lose its example. This copies the
 * metadata onto the described copy; the primitive itself is never mutated.
 */
export function describeField<schema extends OpenApiZodAny>(
  schema: schema,
  { description, example }: DescribeFieldParameters,
): schema {
  const metadata = Array.isArray(schema.metaOpenApi) ? {} : schema.metaOpenApi
  return extendApi(schema.describe(description) as schema, {
    ...metadata,
    description,
    ...(example === undefined ? {} : { example }),
  })
}
