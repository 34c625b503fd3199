import { z } from 'zod'

export type StrictParametersParameters = {
  /** What one of them is called where they arrive: "query parameter" on REST, "argument" in MCP. */
  kind: 'query parameter' | 'argument'
}

/**
 * An object of parameters that refuses any other key: a misspelled one is an error naming the
 * allowed ones, never silently ignored. The JSON Schema of the MCP tools says so too
 * (`additionalProperties: false`). The message names what is allowed; the HTTP and MCP layers put
 * the unknown keys in front of it.
 */
export function strictParameters<shape extends z.ZodRawShape>(shape: shape, { kind }: StrictParametersParameters) {
  const names = Object.keys(shape)
  const allowed = names.length === 0 ? `${kind === 'argument' ? 'This tool' : 'This path'} takes no ${kind}s.` : `Allowed ${kind}s: ${names.join(', ')}.`
  return z.object(shape).strict(allowed)
}

/** The query of a route that takes none: any parameter is refused. */
export const NoQuerySchema = strictParameters({}, { kind: 'query parameter' })
