import type { AnyZodObject, ZodTypeAny } from 'zod'
import { describeZodIssues } from './describeZodIssues.ts'

/** Undefined when the value conforms to the schema, else the SDK's message for the issues found. */
export type OutputCheck = (value: unknown) => string | undefined

type Field = { key: string; schema: ZodTypeAny; passed: WeakSet<object> }

/**
 * Checks a tool's `structuredContent` against its output schema, with the result the SDK's own
 * check gives, but remembers the objects and arrays that passed. Records read from the indexer's
 * store are built once per change, never modified afterwards, and handed to every call: a list of
 * 50 services that passed is not walked again (zod took ~2 ms for it). Values built per call (the
 * chain and REST sources) are new objects, so they are checked in full every time.
 */
export function createOutputCheck(schema: AnyZodObject): OutputCheck {
  const passed = new WeakSet<object>()
  // Field by field is the whole check only when unknown keys pass unchecked (zod's default, "strip").
  const fieldwise = schema._def.unknownKeys !== 'strict' && schema._def.catchall._def.typeName === 'ZodNever'
  const fields: Field[] = Object.entries(schema.shape as Record<string, ZodTypeAny>).map(([key, fieldSchema]) => ({
    key,
    schema: fieldSchema,
    passed: new WeakSet(),
  }))

  const fieldPasses = (field: Field, value: unknown): boolean => {
    if (!isObject(value)) return field.schema.safeParse(value).success
    if (field.passed.has(value)) return true
    if (!field.schema.safeParse(value).success) return false
    field.passed.add(value)
    return true
  }

  const conforms = (value: unknown): boolean => {
    if (!fieldwise || !isObject(value) || Array.isArray(value)) return false
    if (passed.has(value)) return true
    const record = value as Record<string, unknown>
    for (const field of fields) if (!fieldPasses(field, record[field.key])) return false
    passed.add(value)
    return true
  }

  return (value) => {
    if (conforms(value)) return undefined
    // Not known to conform: the whole schema decides, and words the issues.
    const result = schema.safeParse(value)
    return result.success ? undefined : describeZodIssues(result.error)
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}
