import type { ZodError } from 'zod'

/**
 * A zod error as the MCP SDK words argument and output problems: one line per issue, its message
 * and where (`at services[0].seller`), so an agent sees which field to fix.
 */
export function describeZodIssues(error: ZodError): string {
  return error.issues.map(({ message, path }) => (path.length === 0 ? message : `${message} at ${dotPath(path)}`)).join('\n')
}

function dotPath(path: readonly (string | number)[]): string {
  return path.reduce<string>((text, segment, index) => {
    if (index === 0) return String(segment)
    return typeof segment === 'number' ? `${text}[${segment}]` : `${text}.${segment}`
  }, '')
}
