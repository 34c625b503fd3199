import type { ZodError } from 'zod'
import { InvalidParameterError, UnknownParameterError, type ParameterLocation } from '../../errors/http.ts'

export type ToInvalidParameterErrorParameters = {
  location: ParameterLocation
  error: ZodError
  /** The parameters as they arrived (Fastify's `request.params`, `query`, `headers` or `body`). */
  values: unknown
}

/**
 * Names the first parameter the contract's zod schema rejects, quotes what was sent and gives the
 * schema's own message, which says what is allowed; parameters the route does not take are named
 * with the ones it does (see strictParameters).
 */
export function toInvalidParameterError({ location, error, values }: ToInvalidParameterErrorParameters): InvalidParameterError | UnknownParameterError {
  const unknown = error.issues.find((issue) => issue.code === 'unrecognized_keys')
  if (unknown !== undefined) return new UnknownParameterError({ parameters: unknown.keys, allowed: unknown.message })
  const issue = error.issues[0]
  const parameter = String(issue?.path[0] ?? 'unknown')
  const value = (values as Record<string, unknown> | null | undefined)?.[parameter]
  const quoted = typeof value === 'string' || Array.isArray(value) ? (value as string | string[]) : JSON.stringify(value) ?? ''
  return new InvalidParameterError({ location, parameter, value: quoted, expected: issue?.message ?? 'Check the API reference at /docs.' })
}
