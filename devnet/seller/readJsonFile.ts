import { readFileSync } from 'node:fs'
import type { z } from 'zod'

/** `absent`: no file to read (a first run); `malformed`: not JSON, or not what `schema` reads (the cause says which). */
export type ReadJsonFileReturnType<schema extends z.ZodTypeAny> = { kind: 'absent' } | { kind: 'malformed'; cause: unknown } | { kind: 'read'; data: z.output<schema> }

/** A JSON file the seller keeps (its state, its feed cursor), read and checked by `schema`; never throws. */
export function readJsonFile<schema extends z.ZodTypeAny>(file: string, schema: schema): ReadJsonFileReturnType<schema> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return { kind: 'absent' }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (cause) {
    return { kind: 'malformed', cause }
  }
  const parsed = schema.safeParse(json)
  return parsed.success ? { kind: 'read', data: parsed.data } : { kind: 'malformed', cause: parsed.error }
}
